/* Probes a table directory through the installed C interface only
   (mancala/probe.h, libmancala): the install test compiles it as C89 with
   the flags of `pkg-config --cflags --libs mancala`, and links it to the
   shared and to the static library through find_package(mancala).

   usage: consumer DIR POSITION
   prints "value V best B" (B 0 when the game is over), then a line
   "ruleset R pits M seeds K version X" and a line "moves P:V ...";
   exit status 1 with the library's message on stderr when DIR or POSITION
   is refused, 2 on a usage error. */
#include <stdio.h>

#include "mancala/probe.h"

int main(int argc, char** argv) {
  char err[256];
  mancala_tables* t;
  int value = 0, best = 0, code;
  int pits[MANCALA_MAX_MOVES], values[MANCALA_MAX_MOVES];
  size_t count = 0, i;

  if (argc != 3) {
    fprintf(stderr, "usage: %s DIR POSITION\n", argv[0]);
    return 2;
  }
  t = mancala_open_tables(argv[1], err, sizeof err);
  if (!t) {
    fprintf(stderr, "consumer: %s\n", err);
    return 1;
  }
  code = mancala_probe(t, argv[2], &value, &best, err, sizeof err);
  if (code != MANCALA_OK) {
    fprintf(stderr, "consumer: %s (%s)\n", err, mancala_error_name(code));
    mancala_close_tables(t);
    return 1;
  }
  printf("value %d best %d\n", value, best);
  printf("ruleset %s pits %d seeds %d version %s\n", mancala_tables_ruleset(t), mancala_tables_pits_per_side(t),
         mancala_tables_max_seeds(t), mancala_version());
  code = mancala_probe_moves(t, argv[2], pits, values, MANCALA_MAX_MOVES, &count, err, sizeof err);
  if (code != MANCALA_OK) {
    fprintf(stderr, "consumer: %s (%s)\n", err, mancala_error_name(code));
    mancala_close_tables(t);
    return 1;
  }
  printf("moves");
  for (i = 0; i < count; ++i) printf(" %d:%d", pits[i], values[i]);
  printf("\n");
  mancala_close_tables(t);
  return 0;
}
