"""Texts of the claims register in Persian."""

CLAIMS: dict[str, dict[str, str]] = {}
