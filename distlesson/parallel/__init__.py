"""How training is split: the collectives, then each dimension simulated rank by rank in numpy
against a single-device reference (data, ZeRO, tensor, context, expert), and the combined
layout's memory and traffic per GPU."""
