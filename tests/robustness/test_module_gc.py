"""The extension module, its types and the objects it caches form cycles
(module -> cached Device, Context, Queue -> their type -> module): the
garbage collector must be able to free them, or every module instance made
(one per subinterpreter, or a reload) leaks."""

import gc
import importlib.util
import weakref

import usmarray as ua


def fresh_module():
    """A second instance of usmarray._usmarray, with its own state."""
    spec = importlib.util.find_spec("usmarray._usmarray")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_module_instance_with_cached_objects_is_collected():
    module = fresh_module()
    queue = module.Queue("host")
    assert module.Context("host") is queue.context
    assert module.Device("host") is queue.device
    assert type(queue) is not ua.Queue  # the instance's own types
    refs = [weakref.ref(module), weakref.ref(type(queue)), weakref.ref(type(queue.device))]
    del module, queue
    gc.collect()
    assert [r() for r in refs] == [None, None, None]


def test_the_collector_sees_what_devices_contexts_and_queues_hold():
    queue = ua.Queue("host")
    for obj in (queue, queue.context, queue.device):
        assert gc.is_tracked(obj)
        assert type(obj) in gc.get_referents(obj)
    assert queue.context in gc.get_referents(queue)
    assert queue.device in gc.get_referents(queue.context)
