import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "games"


@pytest.fixture
def cli():
    """Runs the real `grundy` binary (GRUNDY_BIN, set by scripts/test) and parses its JSON."""
    binary = os.environ.get("GRUNDY_BIN") or str(ROOT / "target" / "debug" / "grundy")
    if not pathlib.Path(binary).exists():
        pytest.fail(f"the grundy binary is not at {binary}: run ./scripts/test, or set GRUNDY_BIN")

    def run(*args):
        out = subprocess.run([binary, *args], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    return run
