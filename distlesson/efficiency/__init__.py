"""How well the hardware is used: training FLOPs, MFU and HFU, the roofline, the step's time
term by term, the planner that ranks every layout of a cluster, and what a run costs."""
