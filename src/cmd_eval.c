/* cmd_eval.c -- placeholder until the evaluator lands. */
#include <config.h>

#include "cli.h"
#include "commands.h"

int cmd_eval(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_usage_error("eval is not built yet");
}

int cmd_lang(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_usage_error("lang is not built yet");
}
