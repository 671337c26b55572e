/* Helpers the C builds of ``observe`` share (gameplay/rules/duelo/_fastplay.c,
 * gameplay/rules/kungfu2013/_fastobserve.c and kungfu2019/_fastobserve.c):
 * reading a state dict that may be malformed (each read checked, a surprise
 * declined rather than raised) and building dicts from key-ordered templates.
 * Include after <Python.h>. */
#ifndef KFA_OBSERVE_H
#define KFA_OBSERVE_H

/* A dict's item, borrowed; NULL (no exception set) when missing. */
static inline PyObject *get(PyObject *d, PyObject *key) {
    return PyDict_GetItemWithError(d, key);
}

/* Set d[key] = value and drop the reference to value; -1 on error or on a
 * NULL value (a decline or an error of whatever built it). */
static inline int put(PyObject *d, PyObject *key, PyObject *value) {
    if (value == NULL) return -1;
    int r = PyDict_SetItem(d, key, value);
    Py_DECREF(value);
    return r;
}

/* A checked exact int's value, or 0 (the fallback flag). */
static inline int as_long(PyObject *o, long *out) {
    if (o == NULL || !PyLong_CheckExact(o)) return 0;
    int overflow;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

/* A dict of ``keys`` in order, each value None (inserted one by one into an
 * empty dict, which keeps CPython's compact table of str keys). A copy
 * (``PyDict_Copy``) keeps that table, and setting a key it holds replaces a
 * value in place: cheaper than inserting into a new dict, whose presized table
 * (``_PyDict_NewPresized``) is the slower general kind in CPython 3.11. */
static inline PyObject *template(PyObject **keys, int n) {
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < n; i++)
        if (PyDict_SetItem(d, keys[i], Py_None)) Py_CLEAR(d);
    return d;
}

#endif
