"""The cyclic garbage collector only runs on the GUI thread while the app is up."""

from __future__ import annotations

import gc
import threading


def test_collection_is_off_elsewhere_and_done_by_the_gui_timer(qtbot, gui_thread_collector):
    assert not gc.isenabled()
    collected_on = []

    class Cycle:
        def __del__(self):
            collected_on.append(threading.current_thread().name)

    def make_garbage_elsewhere():
        for _ in range(2000):  # far past the generation-0 threshold
            a = Cycle()
            a.self = a
        del a

    worker = threading.Thread(target=make_garbage_elsewhere, name="not-the-gui")
    worker.start()
    worker.join()
    assert collected_on == []  # nothing was collected on the thread that made the garbage
    qtbot.waitUntil(lambda: len(collected_on) >= 1000, timeout=5000)
    assert set(collected_on) == {threading.main_thread().name}


def test_garbage_is_collected_even_while_frees_hold_the_count_under_its_threshold(qtbot, gui_thread_collector):
    collected = []

    class Cycle:
        def __del__(self):
            collected.append(1)

    older = [[] for _ in range(5000)]  # objects a window's layout would free again on its next pass
    gc.collect(0)  # they survive into an older generation; the youngest's count starts again from 0
    for _ in range(1000):
        a = Cycle()
        a.self = a
    del a
    del older  # frees bring the youngest generation's count back under the threshold
    assert gc.get_count()[0] <= gc.get_threshold()[0]
    qtbot.waitUntil(lambda: len(collected) >= 999, timeout=5000)
