"""References: statute and document citations parsed (German, English) and resolved against a knowledge
base's section index. (docs/architecture.md §2)"""
