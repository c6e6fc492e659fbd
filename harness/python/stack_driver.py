"""A Pulumi Python program on the real CLI, driven step by step for the tests.

The official Python language host is not served by the Go module proxy, so the CLI
built from Go modules has none. The Automation API's inline programs do without it:
this process serves the program to the CLI itself (a language runtime on a local port
handed to `pulumi ... --client`). Each step runs the program file again, as
`pulumi up` would (the tests edit it between steps).

Usage: python stack_driver.py SETTINGS_JSON. SETTINGS_JSON holds workDir (the
project folder, with the program's __main__.py), project, stack, cliRoot, env (the
workspace's environment: backend, passphrase, PATH with the plugin) and config
({"irm:apiUrl": {"value": ..., "secret": false}}). Then one JSON command per line on
stdin ({"op": "preview" | "up" | "refresh" | "import" | "destroy" | "export" |
"outputs", ...}), one JSON answer per line on stdout:
{"ok": true, "changes": {"create": 13}, "steps": [["create", "engineering"]],
"output": "...", ...} or {"ok": false, "error": "...", "output": "..."}.
"""

import json
import os
import runpy
import sys
import traceback

from pulumi import automation as auto


# Answers go to the real stdout; anything the program or the SDK prints goes to stderr.
_ANSWERS = sys.stdout
sys.stdout = sys.stderr


def main() -> None:
    settings = json.loads(sys.argv[1])
    work_dir = settings["workDir"]
    program_file = os.path.join(work_dir, "__main__.py")

    def program() -> None:
        # As the Python host runs a project: from its folder, its own modules importable.
        sys.path.insert(0, work_dir)
        try:
            runpy.run_path(program_file, run_name="__main__")
        finally:
            sys.path.remove(work_dir)

    command = auto.PulumiCommand(root=settings["cliRoot"], skip_version_check=True)
    workspace = auto.LocalWorkspaceOptions(
        work_dir=work_dir,
        pulumi_home=settings["env"].get("PULUMI_HOME"),
        pulumi_command=command,
        env_vars=settings["env"],
        project_settings=auto.ProjectSettings(name=settings["project"], runtime="python"),
    )
    stack = auto.create_or_select_stack(
        stack_name=settings["stack"],
        project_name=settings["project"],
        program=program,
        opts=workspace,
    )
    stack.set_all_config(
        {
            key: auto.ConfigValue(value=entry["value"], secret=bool(entry.get("secret")))
            for key, entry in settings["config"].items()
        }
    )
    reply({"ok": True, "ready": True})

    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        output: list[str] = []
        steps: list[list[str]] = []

        def on_event(event: auto.EngineEvent) -> None:
            pre = event.resource_pre_event
            if pre is None or pre.metadata.op == auto.OpType.SAME:
                return
            if pre.metadata.type.startswith("pulumi:"):
                return
            name = pre.metadata.urn.rsplit("::", 1)[-1]
            steps.append([pre.metadata.op.value, name])

        try:
            answer = run(stack, request, output.append, on_event)
            answer.update(ok=True, steps=steps, output="\n".join(output))
        except Exception as error:  # the step's failure is the test's to judge
            answer = {
                "ok": False,
                "error": f"{type(error).__name__}: {error}",
                "trace": traceback.format_exc(limit=3),
                "steps": steps,
                "output": "\n".join(output),
            }
        reply(answer)


def run(stack: auto.Stack, request: dict, on_output, on_event) -> dict:
    op = request["op"]
    if op == "preview":
        result = stack.preview(
            on_output=on_output,
            on_event=on_event,
            expect_no_changes=request.get("expectNoChanges"),
            refresh=request.get("refresh"),
        )
        return {"changes": dict(result.change_summary)}
    if op == "up":
        result = stack.up(on_output=on_output, on_event=on_event)
        return {"changes": dict(result.summary.resource_changes or {})}
    if op == "refresh":
        result = stack.refresh(
            on_output=on_output,
            on_event=on_event,
            expect_no_changes=request.get("expectNoChanges"),
        )
        return {"changes": dict(result.summary.resource_changes or {})}
    if op == "import":
        result = stack.import_resources(
            resources=request["resources"],
            protect=False,
            generate_code=False,
            on_output=on_output,
        )
        return {"changes": dict(result.summary.resource_changes or {})}
    if op == "destroy":
        result = stack.destroy(on_output=on_output, on_event=on_event)
        return {"changes": dict(result.summary.resource_changes or {})}
    if op == "export":
        # As stored: secrets stay encrypted.
        return {"deployment": stack.export_stack().deployment}
    if op == "outputs":
        return {"outputs": {key: out.value for key, out in stack.outputs().items()}}
    raise ValueError(f"unknown op {op!r}")


def reply(answer: dict) -> None:
    _ANSWERS.write(json.dumps(answer, default=str) + "\n")
    _ANSWERS.flush()


if __name__ == "__main__":
    main()
