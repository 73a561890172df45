"""The devices and dtypes a user may name are listed once (``app/model/choices.py``): every command of the
CLI, the worker's own arguments and the settings offer that one list, not a copy that can drift."""

from __future__ import annotations

import argparse

from app.cli import build_parser
from app.data.settings import DEVICES
from app.model.choices import DEVICE_CHOICES, DTYPE_CHOICES, STORED_DTYPE_CHOICES
from app.remote_worker.__main__ import add_worker_arguments


def _actions(parser: argparse.ArgumentParser):
    for action in parser._actions:  # argparse keeps no public list of them
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _actions(sub)
        else:
            yield action


def test_every_device_and_dtype_option_offers_the_one_shared_list():
    worker = argparse.ArgumentParser()
    add_worker_arguments(worker)
    shared = (DEVICE_CHOICES, DTYPE_CHOICES, STORED_DTYPE_CHOICES)
    options = [a for p in (build_parser(), worker) for a in _actions(p) if a.dest in ("device", "dtype", "wire_dtype")]
    assert options and all(any(a.choices is choices for choices in shared) for a in options), [
        (a.option_strings, a.choices) for a in options
    ]
    assert DEVICES is DEVICE_CHOICES
