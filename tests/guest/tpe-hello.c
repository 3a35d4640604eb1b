/* tpe-hello: the program the tests copy around and try to run. It proves it
 * ran by saying so, with the real uid it ran as. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("tpe-hello: ran as uid %u\n", (unsigned)getuid());
	return 0;
}
