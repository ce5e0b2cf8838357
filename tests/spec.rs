use playstyles::agent::{AgentSpec, Value, parse_agent_list, split_agent_list};
use playstyles::agents::build_agent;

use crate::support::Nim;

use crate::support::errors::config_field as field;

#[test]
fn specs_round_trip_through_their_text() {
    for text in [
        "random",
        "end_turn",
        "mcts(budget=2000)",
        "pmcts(bias=true,pruning=true,budget=2000,weights=[spawn.defensive=1,research.naval=0.25])",
        "rhea(horizon=20,mutation=0.1,shift=false)",
        "x(mode=greedy,w=[],n=-3,f=1e-7,g=12345678901234567890)",
        "osla(weights=[a=-1.5,b_2=1000000])",
        "ExpertAI(config=/tmp/bots.toml)",
        "ExpertAI(config=../bots/mine.toml,evaluations=30)",
    ] {
        let spec = AgentSpec::parse(text).unwrap();
        assert_eq!(spec.to_string(), text, "canonical text");
        assert_eq!(AgentSpec::parse(&spec.to_string()).unwrap(), spec);
    }
}

#[test]
fn non_canonical_specs_round_trip_after_one_printing() {
    for text in ["random()", " mcts( budget = 5 ) ", "a(x=+5,y=1.50,z=2E3)"] {
        let spec = AgentSpec::parse(text).unwrap();
        assert_eq!(AgentSpec::parse(&spec.to_string()).unwrap(), spec, "{text}");
    }
    assert_eq!(AgentSpec::parse("random()").unwrap().to_string(), "random");
}

#[test]
fn values_are_typed() {
    let spec = AgentSpec::parse("p(a=1,b=0.5,c=true,d=word,e=[k.x=2])").unwrap();
    let values: Vec<&Value> = spec.fields().iter().map(|(_, v)| v).collect();
    assert_eq!(
        values,
        [
            &Value::Int(1),
            &Value::Float(0.5),
            &Value::Bool(true),
            &Value::Word("word".into()),
            &Value::Weights(vec![("k.x".into(), 2.0)]),
        ]
    );
}

#[test]
fn typed_helpers_read_fields_and_defaults() {
    let mut spec =
        AgentSpec::parse("pmcts(bias=true,budget=2000,c=1.4,weights=[a=1,b=0.25],mode=fast)")
            .unwrap();
    assert!(spec.take_bool("bias", false).unwrap());
    assert!(!spec.take_bool("pruning", false).unwrap());
    assert_eq!(spec.take_u64("budget", 1).unwrap(), 2000);
    assert_eq!(spec.take_u64("depth", 9).unwrap(), 9);
    assert_eq!(spec.take_f64("c", 0.0).unwrap(), 1.4);
    assert_eq!(
        spec.take_weights("weights").unwrap(),
        [("a".to_string(), 1.0), ("b".to_string(), 0.25)]
    );
    assert!(spec.take_weights("other").unwrap().is_empty());
    assert_eq!(spec.take_word("mode", "slow").unwrap(), "fast");
    spec.finish().unwrap();
}

#[test]
fn a_non_numeric_budget_names_the_budget_field() {
    let mut spec = AgentSpec::parse("mcts(budget=abc)").unwrap();
    assert_eq!(field(spec.take_u64("budget", 1)), "budget");
}

#[test]
fn a_negative_or_fractional_budget_names_the_budget_field() {
    for text in ["mcts(budget=-5)", "mcts(budget=2.5)", "mcts(budget=true)"] {
        let mut spec = AgentSpec::parse(text).unwrap();
        assert_eq!(field(spec.take_u64("budget", 1)), "budget", "{text}");
    }
}

#[test]
fn a_non_boolean_flag_names_its_field() {
    let mut spec = AgentSpec::parse("pmcts(bias=1)").unwrap();
    assert_eq!(field(spec.take_bool("bias", false)), "bias");
}

#[test]
fn weights_must_be_a_list_of_numbers() {
    let mut spec = AgentSpec::parse("pmcts(weights=3)").unwrap();
    assert_eq!(field(spec.take_weights("weights")), "weights");
    assert_eq!(field(AgentSpec::parse("pmcts(weights=[a=x])")), "weights");
    assert_eq!(
        field(AgentSpec::parse("pmcts(weights=[a=1,a=2])")),
        "weights"
    );
    assert_eq!(field(AgentSpec::parse("pmcts(weights=[a=inf])")), "weights");
}

#[test]
fn a_field_given_twice_is_named() {
    assert_eq!(field(AgentSpec::parse("mcts(budget=1,budget=2)")), "budget");
}

#[test]
fn a_value_that_is_no_value_names_its_field() {
    assert_eq!(field(AgentSpec::parse("mcts(budget=12abc)")), "budget");
    assert_eq!(field(AgentSpec::parse("mcts(budget=+nan)")), "budget");
}

#[test]
fn malformed_specs_name_the_agents_field() {
    for text in [
        "",
        "   ",
        "mcts(",
        "mcts(budget)",
        "mcts(budget=)",
        "mcts(budget=1",
        "mcts(budget=1,)",
        "mcts)",
        "mcts(budget=1) extra",
        "1mcts",
        "mc ts",
        "mcts(weights=[a=1)",
        "mcts(weights=[a=[1]])",
        "mcts(=1)",
        "mcts(a=1;b=2)",
    ] {
        assert_eq!(field(AgentSpec::parse(text)), "agents", "{text:?}");
    }
}

#[test]
fn syntax_errors_say_where() {
    let e = AgentSpec::parse("mcts(budget=1").unwrap_err().to_string();
    assert!(e.contains("column 14") && e.contains("`)`"), "{e}");
}

#[test]
fn unknown_agents_list_the_known_ones() {
    let e = build_agent(&Nim::new(), "alphazero").err().unwrap();
    let text = e.to_string();
    assert_eq!(field(Err::<(), _>(e)), "agents");
    assert!(
        text.contains("random") && text.contains("end_turn"),
        "{text}"
    );
}

#[test]
fn unknown_fields_are_rejected_by_name() {
    assert_eq!(
        field(build_agent(&Nim::new(), "random(budget=5)").map(|a| a.name())),
        "budget"
    );
    assert!(build_agent(&Nim::new(), "random()").is_ok());
}

#[test]
fn agent_lists_split_on_top_level_commas_only() {
    assert_eq!(
        split_agent_list("random,mcts(budget=5,weights=[a=1,b=2])").unwrap(),
        ["random", "mcts(budget=5,weights=[a=1,b=2])"]
    );
    assert_eq!(
        split_agent_list(" random , end_turn ").unwrap(),
        ["random", "end_turn"]
    );
    assert_eq!(split_agent_list("random").unwrap(), ["random"]);
    let specs = parse_agent_list("random,pmcts(weights=[a=1,b=2])").unwrap();
    assert_eq!(specs[1].to_string(), "pmcts(weights=[a=1,b=2])");
}

#[test]
fn bad_agent_lists_name_the_agents_field() {
    for text in [
        "",
        "random,",
        ",random",
        "random,,random",
        "mcts(budget=5",
        "mcts(budget=5))",
        "mcts(weights=[a=1)]",
    ] {
        assert_eq!(field(split_agent_list(text)), "agents", "{text:?}");
    }
}
