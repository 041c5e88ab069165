"""The guided tour (``creditscope demo``, F2 in the explorer): the real explorer driven
by real keystrokes, with a caption bar saying what is on screen and what it costs live.

- :mod:`.script`: the scenes, their keystrokes and their captions;
- :mod:`.driver`: :class:`~.driver.TourDriver` plays them (pause, step, loop, stop);
- :mod:`.caption`: the caption bar, placed above the footer of the area on screen;
- :mod:`.sandbox_only`: the rule that keeps the tour free (no Textual, for the command).

Imported only when a tour starts: the explorer's first frame never loads it.
"""
