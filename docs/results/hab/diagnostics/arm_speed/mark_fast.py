"""Records `arm_speed: fast` in the skill config of the sixty-seventh session's fine-tunes under the faster
arm (docs/results/runs/*_fastarm_ft/): they were trained with a sitecustomize that scaled the simulator's lead
caps to what `skill.arm_speed=fast` sets now (the same caps; their evaluations reproduce outcome for outcome),
so their files said nothing of it and loaded as "capped". The weights are untouched; the file's `shipped`
record gains a line saying so. Rerunning changes nothing.

    python docs/results/hab/diagnostics/arm_speed/mark_fast.py

"""

from pathlib import Path

import torch

NOTE = "arm_speed set to 'fast' by docs/results/hab/diagnostics/arm_speed/mark_fast.py (trained under those caps)"

for path in sorted(Path("docs/results/runs").glob("*_fastarm_ft/*.pt")):
    data = torch.load(path, weights_only=False)
    config = data["meta"]["skill_config"]
    if config.get("arm_speed") == "fast":
        print(path, "already fast")
        continue
    config["arm_speed"] = "fast"
    data["shipped"]["note"] = NOTE
    torch.save(data, path)
    print(path, "marked fast")
