cmake_minimum_required(VERSION 3.22)
# Writes OUT, the man page of the `mancala` program MANCALA, with help2man
# (HELP2MAN): its --help and --version, and a section holding every
# command's own help (`mancala help CMD`), so that the page says exactly what
# the program says.  Run at build time (cmake -P) after the program is built.
execute_process(COMMAND "${MANCALA}" --help OUTPUT_VARIABLE usage RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${MANCALA} --help failed")
endif()
string(REGEX MATCH "Commands:\n(([ ][ ][a-z][^\n]*\n)+)" listing "${usage}")
string(REGEX MATCHALL "\n  [a-z][a-z-]*" names "\n${CMAKE_MATCH_1}")
set(include "[COMMANDS]\n")
foreach(name IN LISTS names)
  string(STRIP "${name}" name)
  execute_process(COMMAND "${MANCALA}" help "${name}" OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${MANCALA} help ${name} failed")
  endif()
  # roff: a leading dot or quote would be a request; backslashes escape.
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" text "${text}")
  string(APPEND include ".SS ${name}\n.nf\n${text}.fi\n")
endforeach()
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
file(WRITE "${OUT}.include" "${include}")
execute_process(COMMAND "${HELP2MAN}" --no-info --no-discard-stderr --section=1
                        "--name=exact game values for the mancala family"
                        "--include=${OUT}.include" --output=${OUT} "${MANCALA}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed on ${MANCALA}")
endif()
