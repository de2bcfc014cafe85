"""(being written)"""
CHECKS = ()
