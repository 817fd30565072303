"""The arm's joint rates at each `arm_speed`, per joint (pan, lift, upper-arm roll, elbow, forearm roll, wrist
flex, wrist roll) a fraction of HAB's 0.0125 rad a step: `capped` as `speed.py` measured them (speed.txt),
`fast` from `../arm_speed/rates.txt`. Shared by region.py and armfridge.py (run from the repository root)."""

SPEED_RATES = {
    "capped": [0.59, 0.81, 0.97, 0.59, 0.63, 0.62, 0.35],
    "fast": [0.98, 0.97, 0.98, 0.94, 0.82, 0.80, 0.35],
}
