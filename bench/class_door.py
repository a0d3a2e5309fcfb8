"""The teacher's door (classroom/door.py) driven from a bare teacher tab: a cap typed, a minute of joins removed."""
import re

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.class_tab import STEP_TIMEOUT_S, Tab
from kit.text import t

BUSY = t("err_class_busy", seconds=0).split("0")[0]  # how a refusal for the class's rate of joins begins


def seen_at_the_door(teacher: Tab) -> dict:
    """What the teacher's tab sees of the door beyond what a Tab notes (buttons, text inputs, radios): the expander's
    and number input's ids and values by label, the metrics, the success messages and the radios' captions."""
    seen: dict = {"ids": {}, "values": {}, "metrics": {}, "success": [], "captions": {}}
    note = teacher.note

    def noted(fwd, now: float) -> None:
        if fwd.WhichOneof("type") == "delta":
            at_the_door(seen, fwd.delta)
        note(fwd, now)  # after: the waiters it wakes find what was seen
    teacher.note = noted  # type: ignore[method-assign]  # the reader calls it for every message
    return seen


def at_the_door(seen: dict, delta) -> None:
    """Note in `seen` what seen_at_the_door keeps of one delta."""
    if delta.WhichOneof("type") == "add_block" and delta.add_block.WhichOneof("type") == "expandable":
        seen["ids"][delta.add_block.expandable.label] = delta.add_block.id
    if delta.WhichOneof("type") != "new_element":
        return
    element = delta.new_element
    kind = element.WhichOneof("type")
    if kind == "number_input":
        seen["ids"][element.number_input.label] = element.number_input.id
        seen["values"][element.number_input.label] = element.number_input.value
    elif kind == "metric":
        seen["metrics"][element.metric.label] = element.metric.body
    elif kind == "alert" and element.alert.format == Alert.SUCCESS:
        seen["success"].append(element.alert.body)
    elif kind == "radio":
        seen["captions"][element.radio.label] = list(element.radio.captions)


async def drawn_again(teacher: Tab, *states: WidgetState, showing=lambda: True) -> None:
    """The teacher's page run again with these widget values (kept for later runs, as the frontend keeps them), until
    it is `showing` (a run that was under way may end first)."""
    teacher.states |= {state.id: state for state in states}
    runs = teacher.runs
    await teacher.send()
    await teacher.until(lambda: teacher.runs > runs and showing(), STEP_TIMEOUT_S, "the teacher's panel drawn again")


async def set_cap(teacher: Tab, door: dict, cap: int) -> float:
    """The teacher opens the door and types `cap` as the class's cap: the cap the panel then shows."""
    expander, cap_box = t("class_door"), t("class_cap")
    await drawn_again(teacher, showing=lambda: expander in door["ids"])
    await drawn_again(teacher, WidgetState(id=door["ids"][expander], bool_value=True),
                      showing=lambda: cap_box in door["ids"])
    await drawn_again(teacher, WidgetState(id=door["ids"][cap_box], double_value=cap),
                      showing=lambda: door["values"][cap_box] == cap)
    return door["values"][cap_box]


async def remove_busiest_minute(teacher: Tab, door: dict) -> dict:
    """The teacher picks the minute the most students still in joined and removes them all with one button: the
    minute, its count, how many went, and the class's students before and after."""
    await drawn_again(teacher)
    picker, before = t("class_joins_minute"), int(door["metrics"][t("class_joined")])
    counts = [int(re.findall(r"\d+", c)[0]) for c in door["captions"].get(picker, [])]
    if not counts:  # nobody still in joined lately
        return {"minute": None, "counted": 0, "removed": 0, "before": before, "after": before}
    minute = teacher.options[picker][counts.index(max(counts))]
    teacher.set(picker, minute)
    await drawn_again(teacher)
    said = len(door["success"])
    await teacher.press(t("class_remove_minute"))
    await teacher.until(lambda: len(door["success"]) > said, STEP_TIMEOUT_S, "the removal's message")
    removed = int(re.findall(r"\d+", door["success"][-1])[0])
    await drawn_again(teacher)
    return {"minute": minute, "counted": max(counts), "removed": removed, "before": before,
            "after": int(door["metrics"][t("class_joined")])}
