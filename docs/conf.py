"""Sphinx configuration: the API reference comes from the docstrings of the
installed package (numpydoc format) and the signatures of its type stubs."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent / "_ext"))

import usmarray

project = "usmarray"
copyright = "the usmarray authors"
release = version = usmarray.__version__

extensions = ["sphinx.ext.autodoc", "numpydoc", "usmarray_docs"]
exclude_patterns = ["_build"]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# Members are listed by autodoc's :members:, not numpydoc's tables.
numpydoc_show_class_members = False
numpydoc_validation_checks = set()
html_theme = "alabaster"
html_static_path = []
