"""The package's version, sent in the User-Agent of every batch."""

__version__ = "0.1.0"
