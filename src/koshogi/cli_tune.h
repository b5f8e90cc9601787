/* koshogi selfplay and koshogi features: the data for fitting the evaluation's weights
 * (tools/koshogi_fit.py, docs/KOSHOGI.md "The evaluation's weights, fitted on games"). */
#ifndef KOSHOGI_CLI_TUNE_H
#define KOSHOGI_CLI_TUNE_H

/* koshogi selfplay [--games N] [--first G] [--nodes N] [--seed S] ...: the search against itself,
 * one line per quiet position: the game's result for the side to move (1, 0.5, 0) and the
 * position's text. */
int cmd_selfplay(int argc, char **argv);

/* koshogi features: reads such lines on standard input, writes the evaluation's features of each
 * position (a header line of names and today's weights first). */
int cmd_features(int argc, char **argv);

#endif
