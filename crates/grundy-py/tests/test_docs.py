"""The Python examples of the docs cannot go stale: every `pycon` block of the README and the
guide (docs/src/*.md) runs as a doctest against the installed package."""

import doctest
import re

import pytest

from conftest import ROOT

DOCUMENTS = [ROOT / "README.md"] + sorted((ROOT / "docs" / "src").glob("*.md"))
BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)


def blocks():
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            line = text[: match.start()].count("\n") + 2
            yield pytest.param(path, line, match.group(1), id=f"{path.name}:{line}")


def test_the_docs_have_python_examples():
    assert len(list(blocks())) >= 3


@pytest.mark.parametrize("path,line,source", list(blocks()))
def test_python_example(path, line, source, tmp_path, monkeypatch):
    # Examples that write files write them in a scratch directory; rule scripts are found
    # under examples/ as in the guide's commands.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(source, {}, f"{path.name}:{line}", str(path), line - 1)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{path.name}:{line}: {result.failed} example(s) failed (see above)"
