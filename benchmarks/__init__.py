"""Benchmarks for inspect_plural (run with ``python -m benchmarks``)."""
