/* The sysnode CLI's subcommands. Each takes the arguments after `sysnode`
 * (argv[0] is the subcommand's own name), reads them by the option table
 * (common/options.h: 0 after --help or --version, 2 on bad usage), prints
 * its errors to stderr as "sysnode <command>: <message>" and returns the
 * process exit code. */
#ifndef SN_CLI_COMMANDS_H
#define SN_CLI_COMMANDS_H

/* sysnode header ARTIFACT.json [ARTIFACT.json ...] -o FILE.h
 * sysnode header CASE_DIR -o FILE.h
 * Writes the firmware's embedded table for the given rounds (or the case's
 * manifest order) to FILE.h, atomically (host/inputs/ctable.h). Returns 0, 1 on
 * bad input or I/O failure, 2 on bad usage. */
int sn_cmd_header(int argc, char **argv);

/* sysnode run CASE_DIR... [OPTION]... (its options: common/options.c)
 * Replays each case on a simulated SysNode of its own (or, for one case, a
 * card) (host/session/replay.h), N at a time, and prints one verdict line per
 * case in the order given, then any dropped GOs and what --inject did
 * (sim/harness/inject.h), plus a summary line for several; for one case,
 * writes the report, timeline and waveform asked for (docs/user-guide.md "Seeing what
 * happened"). The trace is written by the output rule (host/inputs/file_out.h)
 * when the run reached its wait. Returns 0 when every case matched byte for
 * byte, 1 on a mismatch, no verdict (every expected byte was there before
 * the run) or any error (named on stderr for one case, on its verdict line
 * for several), 128+signal after SIGINT/SIGTERM while dumping FST, 2 on bad
 * usage. */
int sn_cmd_run(int argc, char **argv);

/* sysnode pack ARTIFACT.json [ARTIFACT.json ...] -o TABLE.bin
 * sysnode pack CASE_DIR -o TABLE.bin
 * Checks the rounds against the table rules and writes the packed table
 * (artifacts/FORMAT.md) atomically (host/inputs/pack.h). Returns 0, 1 on bad
 * input or I/O failure, 2 on bad usage. */
int sn_cmd_pack(int argc, char **argv);

/* sysnode dump (TABLE.bin | CASE_DIR | ARTIFACT.json...) [--json]
 * Lists each round's steps and each kick's payloads decoded for the unit at
 * the target (host/inputs/disasm.h); a packed table is verified first. Returns
 * 0, 1 on a bad table or input, 2 on bad usage. */
int sn_cmd_dump(int argc, char **argv);

/* sysnode flash IMAGE.elf --device sim|xdma:PREFIX [OPTION]... (its options: common/options.c)
 * Loads, places, boots and streams the console (docs/user-guide.md "On a card").
 * Returns the image's exit status (low 8 bits), 124 for a hang, 125 for a
 * halt or a simulation error, 126 for a bad input or a device error (named on
 * stderr), 2 on bad usage. */
int sn_cmd_flash(int argc, char **argv);

#endif
