"""Texts of the claims register in Catalan."""

CLAIMS: dict[str, dict[str, str]] = {}
