from tests.fakecord import FakeDiscord


async def test_slash_start(fake_discord: FakeDiscord, test_client) -> None:
    fake = fake_discord
    alice = fake.add_user("alice", locale="fr")
    res = await fake.slash(alice, fake.channel, "nines start", mode="nines", rounds=3)
    assert res.acknowledged, res
    assert res.message is not None
    print(res.message.content, res.message.buttons())
    assert "nines game, 3 rounds" in res.message.content
