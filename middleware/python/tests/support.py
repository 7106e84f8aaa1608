"""Shared by the tests: the repository's paths, and the package imported from the source tree."""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)
REPO_ROOT = os.path.dirname(os.path.dirname(PACKAGE_ROOT))
CORPUS_FILE = os.path.join(REPO_ROOT, 'tests', 'fixtures', 'governance-corpus', 'corpus.json')

if os.path.join(PACKAGE_ROOT, 'src') not in sys.path:
    sys.path.insert(0, os.path.join(PACKAGE_ROOT, 'src'))
