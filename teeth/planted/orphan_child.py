"""calruption starts a child process that would run for ten minutes, records its pid (in
the file named by $CRAL_PLANTED_PID_FILE), and then hangs."""

import os
import subprocess
import sys
import time

from reference import calruption_epoch, catoni_root, passive, robust_cal


def calruption(hypotheses, tape, params):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    with open(os.environ["CRAL_PLANTED_PID_FILE"], "a") as handle:
        handle.write(f"{child.pid}\n")
    time.sleep(600)


__all__ = ["calruption", "calruption_epoch", "catoni_root", "passive", "robust_cal"]
