"""soup.py OUT A.pt B.pt ...: one policy whose weights (normaliser statistics too) are the mean of the
policies A, B, ... fine-tuned from one start (a "model soup", Wortsman et al. 2022); the rest of the
file is A's. Fortieth session: the soup of pick_hard_s11 and pick_hard_s12."""

import sys

import torch

out, sources = sys.argv[1], sys.argv[2:]
files = [torch.load(s, weights_only=False, map_location="cpu") for s in sources]
soup = files[0]
for key, value in soup["model"].items():
    soup["model"][key] = (sum(f["model"][key].double() for f in files) / len(files)).to(value.dtype)
torch.save(soup, out)
print(f"wrote {out}: the mean of {len(files)} policies")
