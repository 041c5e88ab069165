"""``python -m creditscope``."""

from creditscope.cli import main

if __name__ == "__main__":
    main()
