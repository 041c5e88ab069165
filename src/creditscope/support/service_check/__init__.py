"""``creditscope check-service``: the configured service checked against the contract.

Its rules are generated from the operations table (request models with their limits,
response models, prices, which need a key) in ``rules.py``; what the table cannot say
(a sample request that finds something, suffix removal, pagination) are extra entries
keyed by operation in ``extras.py``. ``plan.py`` fits the paid requests into the credit
budget before anything is sent; ``runner.py`` sends them and judges each rule. Pure of
printing: ``commands/check_service.py`` words the plan and the verdicts.
"""
