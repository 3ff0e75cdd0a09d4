/* The output rule (host/inputs/file_out.h, output_check.h): an interrupted write (SIGINT,
 * SIGTERM) leaves no temporary and the old file as it was; a failed write
 * leaves the old file; an output that is an input is refused. Each signal is
 * raised in a child process, whose death the parent checks. */
#include "cmocka_main.h"
#include "tmp_folder.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file_out.h"
#include "output_check.h"

static const char OLD[] = "old bytes the user keeps\n";

static const char *path_in(const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static int entries(void)
{
    int n = 0;
    DIR *d = opendir(tmpdir);
    assert_non_null(d);
    for (struct dirent *de; (de = readdir(d)) != NULL;)
        n += de->d_name[0] != '.';
    closedir(d);
    return n;
}

static void expect_content(const char *path, const char *want)
{
    char buf[256] = {0};
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    assert_int_equal(n, strlen(want));
    assert_string_equal(buf, want);
}

static void write_old(const char *path)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(OLD, f);
    fclose(f);
}

/* In a child: open the output, write half of it, then take sig. */
static void interrupted(int sig)
{
    const char *out = path_in("table.bin");
    write_old(out);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        sn_out o;
        sn_error e = {0};
        if (sn_out_open(&o, out, &e) != SN_OK)
            _exit(3);
        fputs("half a table", o.f);
        fflush(o.f);
        if (access(o.tmp, F_OK) != 0)
            _exit(4); /* the temporary must exist for the test to mean anything */
        raise(sig);
        _exit(5);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), sig);
    expect_content(out, OLD);
    assert_int_equal(entries(), 1); /* table.bin alone: no temporary left */
    unlink(out);
}

static void sigint_removes_temporary(void **state)
{
    (void)state;
    interrupted(SIGINT);
}

static void sigterm_removes_temporary(void **state)
{
    (void)state;
    interrupted(SIGTERM);
}

static void whole_or_nothing(void **state)
{
    (void)state;
    const char *out = path_in("out.bin");
    sn_error e = {0};
    write_old(out);
    /* A write that fails (a full device stands in for a full disk) leaves
     * the old file; the error names the target. */
    sn_out o;
    assert_int_equal(sn_out_open(&o, out, &e), SN_OK);
    fclose(o.f);
    o.f = fopen("/dev/full", "wb");
    assert_non_null(o.f);
    fputs("lost", o.f);
    assert_int_equal(sn_out_commit(&o, &e), SN_ERR_IO);
    assert_non_null(strstr(e.msg, out));
    assert_non_null(strstr(e.msg, "write failed: No space left on device"));
    expect_content(out, OLD);
    assert_int_equal(entries(), 1);
    /* Aborted: the same. Committed: the new bytes, whole. */
    assert_int_equal(sn_out_open(&o, out, &e), SN_OK);
    fputs("never", o.f);
    sn_out_abort(&o);
    expect_content(out, OLD);
    assert_int_equal(sn_file_write_atomic(out, (const uint8_t *)"new", 3, &e), SN_OK);
    expect_content(out, "new");
    assert_int_equal(entries(), 1);
    unlink(out);
}

static void output_that_is_an_input(void **state)
{
    (void)state;
    const char *in = strdup(path_in("input.json"));
    char alias[128];
    snprintf(alias, sizeof alias, "%s/alias.json", tmpdir);
    write_old(in);
    assert_int_equal(link(in, alias), 0); /* another name, the same inode */
    const char *inputs[] = {path_in("missing"), in};
    sn_error e = {0};
    const sn_output_path over = {"-o", alias};
    assert_int_equal(sn_output_paths_check(&over, 1, inputs, 2, NULL, 0, &e), SN_ERR_INPUT);
    char want[300];
    snprintf(want, sizeof want, "-o %s is the input %s; refusing to write over it", alias, in);
    assert_string_equal(e.msg, want);
    const sn_output_path fresh = {"-o", path_in("new.bin")};
    assert_int_equal(sn_output_paths_check(&fresh, 1, inputs, 2, NULL, 0, &e), SN_OK);
    unlink(alias);
    unlink(in);
    free((char *)in);
}

/* Only the folder: every test removes what it made, and a temporary left
 * behind fails the group. */
static int remove_tmpdir(void **state)
{
    (void)state;
    return rmdir(tmpdir);
}

SN_TEST_MAIN(tmp_folder_make, remove_tmpdir, cmocka_unit_test(sigint_removes_temporary),
             cmocka_unit_test(sigterm_removes_temporary), cmocka_unit_test(whole_or_nothing),
             cmocka_unit_test(output_that_is_an_input))
