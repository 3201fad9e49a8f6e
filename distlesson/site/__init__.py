"""The site's machinery: figures in prose, the MkDocs plugin, the prose lint and parity checks."""
