from setuptools import setup

setup(name="tinypkg", version="0.1", packages=["tinypkg"])
