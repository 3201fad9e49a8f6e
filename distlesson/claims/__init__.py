"""The claims register: what the course's source texts state, what the library computes for
the same quantity, whether they agree and why not (texts per language in ``translations``)."""
