# bash completion for mancala (installed as share/bash-completion/completions/mancala).
# The words come from the program itself, so they are always its own: the
# commands from `mancala --help`, a command's options from `mancala CMD --help`.
_mancala() {
  local cur prev cmd
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  local prog=${COMP_WORDS[0]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    local commands
    commands=$("$prog" --help 2>/dev/null | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
    COMPREPLY=($(compgen -W "$commands help --help --version" -- "$cur"))
    return 0
  fi
  cmd=${COMP_WORDS[1]}
  if [ "$cmd" = help ]; then
    COMPREPLY=($(compgen -W "$("$prog" --help 2>/dev/null | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')" -- "$cur"))
    return 0
  fi
  case "$prev" in
    --tables|--out|--entries|--manifest)
      COMPREPLY=($(compgen -f -- "$cur"))
      return 0 ;;
    --game)
      COMPREPLY=($(compgen -W "kalah brainking oware congkak" -- "$cur"))
      return 0 ;;
    --side)
      COMPREPLY=($(compgen -W "s n none" -- "$cur"))
      return 0 ;;
  esac
  if [[ "$cur" == -* ]]; then
    local options
    options=$("$prog" "$cmd" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
    return 0
  fi
  COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _mancala mancala
