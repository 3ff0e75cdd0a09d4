/* A fresh folder for a cmocka group's files, tmpdir: tmp_folder_make and
 * tmp_folder_remove are SN_TEST_MAIN's group setup and teardown. The folder
 * is made under /tmp before the first test and removed after the last with
 * every file the tests left in it. */
#ifndef SN_TESTS_TMP_FOLDER_H
#define SN_TESTS_TMP_FOLDER_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/sn_test_XXXXXX";

static inline int tmp_folder_make(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static inline int tmp_folder_remove(void **state)
{
    (void)state;
    DIR *d = opendir(tmpdir);
    if (d == NULL)
        return -1;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        char path[sizeof tmpdir + 256];
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
            snprintf(path, sizeof path, "%s/%s", tmpdir, de->d_name) < (int)sizeof path)
            unlink(path);
    }
    closedir(d);
    return rmdir(tmpdir);
}

#endif
