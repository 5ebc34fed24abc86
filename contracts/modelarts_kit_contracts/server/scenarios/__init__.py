"""The scenario drivers, by property: lifecycle, rejection, access."""
