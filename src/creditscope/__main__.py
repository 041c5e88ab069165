"""``python -m creditscope``."""

from creditscope.entry import main

if __name__ == "__main__":
    main()
