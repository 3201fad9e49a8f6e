"""What makes two builds of one commit differ, removed: the labs' cell ids."""

import jupytext

from distlesson.site.labs import stable_cell_ids
from tests.pages import lab_names, lab_path


def test_a_lab_read_twice_gets_the_same_cell_ids():
    path = lab_path(lab_names()[0], "en")
    ids = []
    for _ in range(2):
        with stable_cell_ids():
            ids.append([cell.id for cell in jupytext.read(path).cells])
    assert ids[0] == ids[1] == [f"cell-{n}" for n in range(1, len(ids[0]) + 1)]


def test_outside_a_build_ids_stay_random():
    path = lab_path(lab_names()[0], "en")
    with stable_cell_ids():
        pass
    assert jupytext.read(path).cells[0].id != "cell-1"
