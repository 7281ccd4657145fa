"""Rabbithole: an offline desktop research assistant over local PDFs."""

__version__ = "0.1.0"
