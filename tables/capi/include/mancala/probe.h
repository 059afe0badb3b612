/*
 * mancala/probe.h: the C interface to mancala-solver's endgame tables.
 *
 * Probing a table directory built by `mancala build` from C (or anything
 * that calls C), in the manner of Fathom's tb_init / tb_probe_root:
 *
 *     char err[256];
 *     int value, best;
 *     mancala_tables* t = mancala_open_tables("tables/kalah6", err, sizeof err);
 *     if (!t) { fprintf(stderr, "%s\n", err); return 1; }
 *     if (mancala_probe(t, "4,0,5,5,5,5/4,4,4,4,4,4 0-1 n", &value, &best, err, sizeof err) != MANCALA_OK)
 *       fprintf(stderr, "%s\n", err);
 *     else
 *       printf("value %d best %d\n", value, best);
 *     mancala_close_tables(t);
 *
 * Link with `pkg-config --cflags --libs mancala` (the shared libmancala.so),
 * or in CMake with find_package(mancala) and the target mancala::c (shared)
 * or mancala::c_static (the static libmancala.a, which needs the C++
 * runtime and TBB at link time; CMake adds them).
 *
 * The header is plain C89: no C99 types, no `//` comments.
 *
 * CONVENTIONS
 *
 *   Positions are NUL-terminated strings in the project's notation:
 *       <south row>/<north row> <south store>-<north store> <s|n>
 *   rows comma-separated, each in its owner's sowing order (pit 1 farthest
 *   from the owner's store, so south pit i faces north pit m+1-i), `x` a
 *   burnt hole (Congkak), `s` or `n` the player to move.  The grammar is
 *   strict: single spaces, no signs, no leading zeros.  Kalah(6,4)'s start is
 *   "4,4,4,4,4,4/4,4,4,4,4,4 0-0 s".
 *
 *   A value is the final store difference, player to move minus opponent,
 *   under perfect play from the position, its stores included: the number
 *   `mancala solve` and `mancala probe` print.  Positive: the player to move
 *   wins (see mancala_outcome()).
 *
 *   Moves are pit numbers 1..m in the mover's own sowing order (the
 *   notation's numbering).  The best move is the lowest-numbered of the
 *   moves of the position's value; 0 when the game (or Congkak round) is
 *   over, and a finished position's value is its final store difference
 *   (every seed left on a row counted as its owner's, as the rules sweep
 *   them).
 *
 *   The ruleset and the board width are the tables' own (from the files'
 *   headers), not chosen by the caller.  Tables hold the boards without
 *   burnt holes with 0..mancala_tables_max_seeds() seeds on the board
 *   (stores excluded: the stores do not change which board is read).  A
 *   position is still one of the engine's: a count above 255, or more than
 *   255 seeds in all, is MANCALA_ERR_POSITION.
 *
 * ERRORS
 *
 *   Functions returning int return MANCALA_OK (0) on success, otherwise one
 *   of the MANCALA_ERR_* codes below; mancala_open_tables returns NULL.  On
 *   an error the outputs are left as they were (except `count` with
 *   MANCALA_ERR_CAPACITY), and a one-line message saying why goes into
 *   `err`.  `err` may be NULL or `err_len` 0 (no message is written); a
 *   message longer than err_len - 1 bytes is truncated, and whatever is
 *   written is always NUL-terminated.  On success err is set to "" (when
 *   there is room).  No call crashes on a NULL handle or position (they are
 *   MANCALA_ERR_ARGUMENT), and no C++ exception ever leaves the library
 *   (out of memory is MANCALA_ERR_INTERNAL).
 *
 * OWNERSHIP
 *
 *   mancala_open_tables returns a handle the caller owns and frees with
 *   mancala_close_tables (which accepts NULL).  Strings returned by the
 *   library are never freed by the caller: mancala_tables_ruleset's lives as
 *   long as its handle, mancala_version's and mancala_error_name's forever.
 *   Arrays and buffers passed in stay the caller's; the library keeps no
 *   pointer to them after the call.
 *
 * THREAD SAFETY
 *
 *   A handle may be probed (and its accessors called) from any number of
 *   threads at once; level files are mapped on first use, under a lock.
 *   mancala_close_tables must not run while another call uses the same
 *   handle.  Distinct handles are independent; mancala_open_tables may be
 *   called from several threads at once.
 *
 *   Level files are memory-mapped read-only.  A file that another program
 *   truncates or rewrites in place while it is mapped (`mancala build` never
 *   does that: it writes a new file and renames it into place) would raise
 *   SIGBUS on access; the library installs a SIGBUS handler, when it maps
 *   its first level, that then prints one line naming the file and ends the
 *   process with status 2, and hands any other SIGBUS on to the handler it
 *   replaced.
 */
#ifndef MANCALA_PROBE_H
#define MANCALA_PROBE_H

#include <stddef.h>

/* The symbols of the C interface are the only ones libmancala.so exports. */
#if defined(__GNUC__) || defined(__clang__)
#define MANCALA_API __attribute__((visibility("default")))
#else
#define MANCALA_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. */
#define MANCALA_OK 0
/* A NULL handle, position or output pointer, or an argument out of range. */
#define MANCALA_ERR_ARGUMENT 1
/* The position is not a position: malformed notation, or not playable
   under the tables' ruleset (e.g. burnt holes in a game that has none). */
#define MANCALA_ERR_POSITION 2
/* A valid position the tables do not hold: another number of pits a side,
   burnt holes (the tables hold boards without them), or more seeds on the
   board than mancala_tables_max_seeds(). */
#define MANCALA_ERR_NOT_COVERED 3
/* The tables are bad: a level file that is corrupt, truncated, foreign or
   unreadable when first used, or values that disagree with each other
   (run `mancala verify`). */
#define MANCALA_ERR_TABLE 4
/* mancala_probe_moves: the arrays hold fewer than the position's moves;
   *count says how many are needed. */
#define MANCALA_ERR_CAPACITY 5
/* Out of memory, or an internal error (a bug: please report it). */
#define MANCALA_ERR_INTERNAL 6

/* Outcomes for the player to move (mancala_outcome). */
#define MANCALA_WIN 1
#define MANCALA_DRAW 0
#define MANCALA_LOSS (-1)

/* No position has more legal moves than this (the engine's largest board
   has 16 pits a side): arrays of this size always suffice. */
#define MANCALA_MAX_MOVES 16

/* An open table directory (opaque). */
typedef struct mancala_tables mancala_tables;

/* Opens the table directory `dir` (levels 0..K from `mancala build`).
   Returns NULL on error, with err saying why: dir NULL, no such directory,
   not a directory, no level files, a gap in the levels, a level file that
   is truncated or whose header is unreadable or mismatched.  Every level
   file's header (and size) is checked here; a level's values are mapped,
   and checked against the header's hash, when it is first probed. */
MANCALA_API mancala_tables* mancala_open_tables(const char* dir, char* err, size_t err_len);

/* Frees a handle from mancala_open_tables and unmaps its files.  NULL is
   accepted (nothing happens). */
MANCALA_API void mancala_close_tables(mancala_tables* t);

/* Probes `position`: writes its value to *value and its best move to
   *best_move (0 when the game is over).  Either output pointer may be NULL
   when that output is not wanted.  Returns MANCALA_OK, or
   MANCALA_ERR_ARGUMENT (t or position NULL), MANCALA_ERR_POSITION,
   MANCALA_ERR_NOT_COVERED, MANCALA_ERR_TABLE, MANCALA_ERR_INTERNAL. */
MANCALA_API int mancala_probe(const mancala_tables* t, const char* position, int* value, int* best_move, char* err,
                              size_t err_len);

/* Every legal move of `position` with its value (the position's value for
   its player to move if that move is played, then perfect play: a move that
   hands the turn over is already seen from the same player, so the best
   moves' values equal mancala_probe's value).  Writes the moves in pit
   order to pits[0..n) and their values to values[0..n), and n to *count;
   n is 0 for a finished position.  `capacity` is the length of both arrays
   (MANCALA_MAX_MOVES always suffices; they may be NULL when capacity is 0).
   Returns MANCALA_OK, or MANCALA_ERR_CAPACITY when n > capacity (then only
   *count is written, with n), or the errors of mancala_probe
   (MANCALA_ERR_ARGUMENT also for count NULL, or pits or values NULL with a
   capacity above 0). */
MANCALA_API int mancala_probe_moves(const mancala_tables* t, const char* position, int* pits, int* values,
                                    size_t capacity, size_t* count, char* err, size_t err_len);

/* The tables' ruleset as its canonical digest, e.g. "kalah",
   "kalah+empty-capture", "oware+grand-slam=forbidden", "congkak"; valid
   until the handle is closed.  NULL when t is NULL. */
MANCALA_API const char* mancala_tables_ruleset(const mancala_tables* t);

/* The tables' board width m (pits a side); -1 when t is NULL. */
MANCALA_API int mancala_tables_pits_per_side(const mancala_tables* t);

/* The most seeds on the board (stores excluded) the tables hold: levels
   0..this; -1 when t is NULL. */
MANCALA_API int mancala_tables_max_seeds(const mancala_tables* t);

/* MANCALA_WIN (1), MANCALA_DRAW (0) or MANCALA_LOSS (-1) for the player to
   move, from a value: its sign. */
MANCALA_API int mancala_outcome(int value);

/* The library's version, "MAJOR.MINOR.PATCH" (e.g. "0.2.0"). */
MANCALA_API const char* mancala_version(void);

/* The git commit the library was built from (12 hex digits, "+dirty" when
   the sources differed from it), or "unknown". */
MANCALA_API const char* mancala_source_commit(void);

/* A short English name of a return code ("ok", "bad argument", "bad
   position", "not covered by the tables", "bad tables", "capacity too
   small", "internal error"; "unknown error" for any other number). */
MANCALA_API const char* mancala_error_name(int code);

#ifdef __cplusplus
}
#endif

#endif /* MANCALA_PROBE_H */
