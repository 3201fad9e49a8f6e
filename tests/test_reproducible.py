"""What makes two builds of one commit differ, removed: the labs' cell ids, and their
printed output cut into as many boxes as the kernel's flushes."""

import jupytext

from distlesson.site.labs import reproducible_rendering
from tests.pages import lab_names, lab_path


def test_a_lab_read_twice_gets_the_same_cell_ids():
    path = lab_path(lab_names()[0], "en")
    ids = []
    for _ in range(2):
        with reproducible_rendering():
            ids.append([cell.id for cell in jupytext.read(path).cells])
    assert ids[0] == ids[1] == [f"cell-{n}" for n in range(1, len(ids[0]) + 1)]


def test_outside_a_build_ids_stay_random():
    path = lab_path(lab_names()[0], "en")
    with reproducible_rendering():
        pass
    assert jupytext.read(path).cells[0].id != "cell-1"


def test_a_cell_printed_in_flushed_pieces_renders_as_one_output(tmp_path):
    from mkdocs_jupyter.nbconvert2 import nb2html

    lab = tmp_path / "pieces.py"
    # two prints with a flush and a pause between: the kernel sends two stream messages
    lab.write_text('# %%\nimport sys, time\nprint("first", end=" ")\nsys.stdout.flush()\n'
                   'time.sleep(0.5)\nprint("second")\n', encoding="utf-8")
    with reproducible_rendering():
        whole = nb2html(str(lab), execute=True, kernel_name="python3")
    cut = nb2html(str(lab), execute=True, kernel_name="python3")
    assert "first second" in whole and whole.count('data-mime-type="text/plain"') == 1
    assert cut.count('data-mime-type="text/plain"') == 2  # what a build without it shows
