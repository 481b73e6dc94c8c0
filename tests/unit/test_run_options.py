from threadbench.run_options import RunOptions, fields_from_schema


def test_fields_come_from_the_schema_then_deerflow_keys():
    schema = {
        "properties": {
            "thinking_enabled": {"type": "boolean"},
            "temperature": {"type": "number", "description": "sampling"},
            "mode": {"enum": ["fast", "deep"]},
            "model_name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "tools": {"type": "array"},
        }
    }
    fields = {f.name: f for f in fields_from_schema(schema)}
    assert fields["thinking_enabled"].kind == "bool"
    assert fields["temperature"].kind == "number"
    assert fields["mode"].choices == ["fast", "deep"]
    assert fields["model_name"].kind == "text"
    assert "tools" not in fields
    assert "is_plan_mode" in fields and "reasoning_effort" in fields
    assert [f.name for f in fields_from_schema(None)][0] == "thinking_enabled"


def test_options_are_sent_one_way_only():
    options = RunOptions(values={"is_plan_mode": True, "model_name": "m"})
    assert options.context() == {"is_plan_mode": True, "model_name": "m"}
    assert options.configurable() == {}
    options.send_as = "configurable"
    assert options.context() == {} and options.configurable()["model_name"] == "m"
    assert options.summary() == "plan_mode, model_name=m"
