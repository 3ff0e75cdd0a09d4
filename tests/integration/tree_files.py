"""The files a tree check reads (citations.py, layering.py): git's tracked
files under root, or, in an unpacked archive, every file but the build's."""
import os
import subprocess


def tree_files(root):
    """Paths relative to root."""
    git = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    if git.returncode == 0:
        return git.stdout.split()
    return [os.path.relpath(os.path.join(d, n), root) for d, subs, names in os.walk(root)
            for n in names if not os.path.relpath(d, root).startswith(("build", ".git"))]
