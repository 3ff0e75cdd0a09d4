/* Any C program on the SysNode: printf to the console, malloc from the
 * scratchpad heap, exit status to R_EXIT (firmware/bsp). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const char *greeting = "hello from the SysNode";
    char *copy = malloc(strlen(greeting) + 1);
    if (copy == NULL)
        return 1;
    strcpy(copy, greeting);
    unsigned long sum = 0;
    for (int i = 1; i <= 100; i++)
        sum += (unsigned long)i * (unsigned long)i;
    printf("%s: sum of squares 1..100 = %lu, heap at %p\n", copy, sum, (void *)copy);
    free(copy);
    return 0;
}
