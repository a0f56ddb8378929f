"""The errors the library raises for what a user gave it; the CLI prints each as one line."""


class BaccaratError(ValueError):
    """A problem with the user's input; the CLI prints it as ``Error: ...``."""


class RunFailed(BaccaratError):
    """A run that could not finish for a reason outside the input: a worker process died, the
    Dask scheduler was lost. The message says what happened and what was lost."""
