"""tpsrl: task planning with skill RL for home rearrangement."""

__version__ = "0.1.0"
