/* Helpers the games' C builds of ``observe`` share (any
 * ``gameplay/rules/<game>/_fast*.c`` may include it):
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

/* A new reference to o. */
static inline PyObject *ref(PyObject *o) {
    Py_INCREF(o);
    return o;
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

/* -- building a dict from its template ------------------------------------
 *
 * An observation (and a dict in it) is a copy of its template (every key in
 * order) with every value then set. PyDict_SetItem finds a key by hashing and
 * probing, about 200 instructions a key (callgrind), and a step's observation
 * sets about 25. In CPython 3.11 the copy of a
 * template of str keys is a compact table whose entries are the template's
 * keys in order, so the values are written into their entries directly; each
 * entry's key is checked first, and any other layout (another CPython, an
 * unexpected table) takes PyDict_SetItem. */
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define Py_BUILD_CORE
#include "internal/pycore_dict.h"
#undef Py_BUILD_CORE
#define DIRECT_ENTRIES 1
#endif

/* A copy of ``tmpl`` (its ``n`` keys ``keys``, in order) with
 * ``values[i]`` for ``keys[i]``. Steals every value. A NULL value (an error
 * already raised, or a reader's decline, which raises none) makes it return
 * NULL, the other values dropped: the caller tells the two apart by
 * PyErr_Occurred(), as the observes' declines do. */
static inline PyObject *build(PyObject *tmpl, PyObject *const *keys,
                              PyObject **values, int n) {
    PyObject *d = PyDict_Copy(tmpl);
    int i = 0;
    if (d == NULL) goto error;
#ifdef DIRECT_ENTRIES
    PyDictObject *mp = (PyDictObject *)d;
    PyDictKeysObject *dk = mp->ma_keys;
    if (mp->ma_values == NULL && DK_IS_UNICODE(dk) && dk->dk_nentries == n) {
        PyDictUnicodeEntry *e = DK_UNICODE_ENTRIES(dk);
        for (; i < n && e[i].me_key == keys[i]; i++) {
            if (values[i] == NULL) goto error;
            PyObject *old = e[i].me_value;
            e[i].me_value = values[i];
            values[i] = NULL;
            Py_DECREF(old);
        }
    }
#endif
    for (; i < n; i++) {
        if (values[i] == NULL || PyDict_SetItem(d, keys[i], values[i])) goto error;
        Py_CLEAR(values[i]);
    }
    return d;
error:
    Py_XDECREF(d);
    for (; i < n; i++) Py_XDECREF(values[i]);
    return NULL;
}

/* The values (borrowed; NULL when missing) of a dict's ``count`` fields
 * ``keys``: in one pass over its entries when they are those keys in that
 * order (the same interned strings: an engine makes a state in one order, and
 * every later one is a copy that replaces values), else looked up one by one
 * (a JSON copy, a state built by hand). -1 on error. */
static inline int read_fields(PyObject *d, PyObject *const *keys, int count,
                              PyObject **v) {
    int i = 0;
#ifdef DIRECT_ENTRIES
    /* The entries of a compact table of str keys with none deleted, read as
     * PyDict_Next would. */
    PyDictObject *mp = (PyDictObject *)d;
    PyDictKeysObject *dk = mp->ma_keys;
    if (mp->ma_values == NULL && DK_IS_UNICODE(dk) && mp->ma_used == count &&
        dk->dk_nentries == count) {
        PyDictUnicodeEntry *e = DK_UNICODE_ENTRIES(dk);
        for (; i < count && e[i].me_key == keys[i]; i++) v[i] = e[i].me_value;
        if (i == count) return 0;
    }
#else
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    if (PyDict_GET_SIZE(d) == count) {
        while (PyDict_Next(d, &pos, &key, &value) && key == keys[i]) {
            v[i] = value;
            if (++i == count) return 0;
        }
    }
#endif
    for (i = 0; i < count; i++)
        if (!(v[i] = get(d, keys[i])) && PyErr_Occurred()) return -1;
    return 0;
}

#endif
