"""A Pulumi Python program run without the engine, on the Python SDK's mocks.

What it registers and invokes, as the wire sees them (type tokens, input names after
the SDK's snake_case to camelCase translation), and its stack outputs, printed as one
JSON object on stdout: {"calls": [{"resource": "irm:index:Group", "name": "team",
"inputs": {...}} | {"call": "irm:index:getRole", "args": {...}}], "exports": {...}}.
A resource's outputs are its inputs plus `uid` ("<name>-uid"); a function's result is
its arguments plus `uid` ("<token's last part>-uid").

Usage: python mock_run.py PROGRAM PROJECT, with the program's configuration in
PULUMI_CONFIG ({"<project>:<key>": "<value>"}) and the SDK on PYTHONPATH.
"""

import json
import runpy
import sys

import pulumi

_ANSWERS = sys.stdout
sys.stdout = sys.stderr

calls = []


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        calls.append({"resource": args.typ, "name": args.name, "inputs": args.inputs})
        return [f"{args.name}-id", {**args.inputs, "uid": f"{args.name}-uid"}]

    def call(self, args):
        arguments = dict(args.args)
        calls.append({"call": args.token, "args": arguments})
        return {**arguments, "uid": f"{args.token.split(':')[-1]}-uid"}


program, project = sys.argv[1], sys.argv[2]
pulumi.runtime.set_mocks(Mocks(), project=project, stack="dev", preview=True)
exports = {}
# The mocks have no stack resource to hold outputs: the program's exports are kept here.
pulumi.export = lambda name, value: exports.__setitem__(name, value)


@pulumi.runtime.test
def run():
    runpy.run_path(program, run_name="__main__")
    return pulumi.Output.all(**exports).apply(
        lambda values: _ANSWERS.write(json.dumps({"calls": calls, "exports": values}) + "\n")
    )


run()
