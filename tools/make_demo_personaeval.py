"""Generate DEMO data for the PersonaEval tasks of inspect_plural.

The rows produced here are DEMO data written for inspect_plural in the official PersonaEval
CSV schema. Every novel, screenplay, character and expert is invented; no text is taken from
the PersonaEval dataset or from any real book, play or paper. The demo files let the tasks run
end to end without the real data.

Each row is a two-turn dialogue: Character1 (named) speaks, then Character2 (unnamed) replies,
and the model must say which candidate is Character2. Outputs, 20 rows each, are written to
src/inspect_plural/demo/personaeval/:

* demo_Literary.csv:  English, invented novels, 4 candidates per row.
* demo_Drama.csv:     Chinese, invented screenplays, 4 candidates per row.
* demo_Expertise.csv: English, invented experts, 5 audience levels per row.

Columns: prompt, gt, option1, option1_profile, ..., optionN, optionN_profile.

Run from the repository root (output is deterministic, seeded with random.Random(0)):

    python3 tools/make_demo_personaeval.py
"""

from __future__ import annotations

import csv
import random
from pathlib import Path
from typing import TypedDict

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = REPO_ROOT / "src" / "inspect_plural" / "demo" / "personaeval"

FIRST_LINE = (
    "You are a demo assistant for identifying the speaker of a dialogue turn. "
    "(DEMO DATA written for inspect_plural; not from the PersonaEval dataset.)"
)

ENGLISH_TASK = (
    "Decide how likely it is that each candidate below is Character2, and give every "
    "candidate a probability; the probabilities must add up to 1."
)
ENGLISH_FORMAT = (
    "Reply with only a JSON object whose keys are the candidates' names, spelled exactly as "
    "above, and whose values are their probabilities."
)
CHINESE_TASK = (
    "请判断下列每位候选角色是 Character2 的可能性，并为每位候选给出一个概率，所有概率之和为 1。"
)
CHINESE_FORMAT = "请只输出一个 JSON 对象：键为候选角色的准确名字，值为对应的概率。"
EXPERTISE_TASK = (
    "Character2 is a member of the audience. Estimate the probability that Character2 "
    "belongs to each audience level listed below; the probabilities must sum to 1."
)
EXPERTISE_FORMAT = (
    "Reply with only a JSON object mapping each candidate name, spelled exactly as above, "
    "to its probability."
)


class RoleRow(TypedDict):
    """A Literary or Drama row: Character1 speaks, then the ``gt`` character replies."""

    c1: str
    c1_text: str
    c2_text: str
    gt: str
    others: list[str]


class ExpertRow(TypedDict):
    """An Expertise row: an expert explains a topic, an audience member (``gt``) replies."""

    c1: str
    field: str
    topic: str
    c1_text: str
    c2_text: str
    gt: str


# ---------------------------------------------------------------------------------------------
# Literary track (English, invented novels)
# ---------------------------------------------------------------------------------------------

LITERARY_CHARACTERS: dict[str, str] = {
    # The Salt Ledger (seafaring novel)
    "Maren Holloway": (
        "Navigator of the brig Kestrel in the seafaring novel The Salt Ledger, and daughter of a "
        "captain lost at sea. Precise, guarded and quietly stubborn, she trusts her charts more "
        "than any man aboard."
    ),
    "Captain Elias Thorne": (
        "Master of the Kestrel in The Salt Ledger, sailing to pay off his debts to a Bristol "
        "merchant house. Stern and proud, he hides his fear of ruin behind strict discipline."
    ),
    "Tobias Wren": (
        "The Kestrel's twelve-year-old cabin boy in The Salt Ledger, an orphan from the Liverpool "
        "docks. Talkative and superstitious, he collects sailors' omens and idolises the "
        "navigator."
    ),
    "Dr. Anselm Pike": (
        "The ship's surgeon in The Salt Ledger, a former London physician who went to sea after a "
        "scandal. Dry-witted and fond of brandy, he treats the crew with weary tenderness."
    ),
    "Jonah Carrow": (
        "First mate of the Kestrel in The Salt Ledger. Ambitious and resentful of the captain, he "
        "is quietly winning over the crew for a mutiny."
    ),
    "Lettice Marr": (
        "A stowaway in The Salt Ledger who boards disguised as a boy to escape an arranged "
        "marriage. Quick-tongued and resourceful, she fears discovery above everything else."
    ),
    # The Quiet Hour at Ashgrove (boarding-school mystery)
    "Imogen Vale": (
        "A scholarship pupil newly arrived at Ashgrove School in the mystery novel The Quiet Hour "
        "at Ashgrove. Observant and logical, she keeps a notebook of clues and cannot leave a "
        "puzzle alone."
    ),
    "Miss Harriet Crewe": (
        "Headmistress of Ashgrove in The Quiet Hour at Ashgrove. Formidable and exacting, she "
        "guards the school's reputation and an old secret about a pupil who vanished twenty years "
        "ago."
    ),
    "Penelope Ashby": (
        "Imogen's roommate in The Quiet Hour at Ashgrove, the cheerful daughter of a minor "
        "baronet. She adores gossip and midnight feasts but is easily frightened by ghost stories."
    ),
    "Mr. Lionel Dunstan": (
        "The Latin master at Ashgrove in The Quiet Hour at Ashgrove. Nervous and shabby-genteel, "
        "he has run up gambling debts that he is desperate to conceal."
    ),
    "Agatha Fenwick": (
        "Head girl of Ashgrove in The Quiet Hour at Ashgrove. Proud, ambitious and fiercely loyal "
        "to the headmistress, she treats newcomers with cool disdain."
    ),
    "Sam Odell": (
        "The groundskeeper's son at Ashgrove in The Quiet Hour at Ashgrove. Quiet and watchful, he "
        "knows every tunnel and disused stair beneath the old house."
    ),
    # Harrowfield (village saga)
    "Nell Brackett": (
        "Widowed matriarch of Brackett Farm in the village saga Harrowfield. Hard-working and "
        "unsentimental, she has held the land together through two bad harvests and will not hear "
        "of selling it."
    ),
    "Walter Brackett": (
        "Nell's eldest son in Harrowfield. Practical and weary of the farm's debts, he wants to "
        "sell the lower fields to the new railway company."
    ),
    "Rosie Brackett": (
        "The youngest Brackett daughter in Harrowfield. Bookish and restless, she dreams of "
        "training as a teacher in the city but dreads disappointing her mother."
    ),
    "Reverend Cyril Moss": (
        "The vicar of Harrowfield parish. Gentle and well-meaning, he cannot resist meddling in "
        "his parishioners' family quarrels."
    ),
    "Hal Tremaine": (
        "The village blacksmith in Harrowfield and Nell's sweetheart from long ago. Slow-spoken "
        "and steady, he still carries a quiet affection for her."
    ),
    "Dora Finch": (
        "Postmistress of Harrowfield. Nosy and quick-witted, she reads every postcard that passes "
        "through her hands and spreads the news by teatime."
    ),
    # The Lamplighter's Daughter (industrial-city novel)
    "Clara Voss": (
        "A mill hand and the lamplighter's daughter in the industrial novel The Lamplighter's "
        "Daughter. Fierce and articulate, she is secretly organising the workers of Marlowe Mill "
        "to demand shorter hours."
    ),
    "Augustin Marlowe": (
        "Owner of Marlowe Mill in The Lamplighter's Daughter. Cold and calculating, he presents "
        "himself as a reformer while cutting wages behind closed doors."
    ),
    "Benedict Marlowe": (
        "Augustin Marlowe's only son in The Lamplighter's Daughter. A dreamy young poet, he "
        "sympathises with the mill workers and is falling in love with Clara Voss."
    ),
    "Sal Greeley": (
        "Keeper of a crowded lodging house in The Lamplighter's Daughter. Shrewd, practical and "
        "blunt, she has watched too many strikes fail to believe in causes."
    ),
    "Inspector Rufus Keane": (
        "A police inspector in The Lamplighter's Daughter assigned to watch the mill agitators. "
        "Dogged and cynical, he trusts evidence more than the men who pay his wages."
    ),
    "Hester Voss": (
        "Clara's younger sister in The Lamplighter's Daughter, bedridden with a weak chest. Gentle "
        "and imaginative, she spends her days drawing the street from her window."
    ),
    # Beneath the Copper Hills (mining-frontier novel)
    "Ada Quill": (
        "A young schoolteacher newly arrived in the mining town of Red Ledge in Beneath the Copper "
        "Hills. Idealistic and stubborn, she is determined to teach the miners' children to read."
    ),
    "Silas Drummond": (
        "Foreman of the Red Ledge copper mine in Beneath the Copper Hills. Gruff and loyal to his "
        "crew, he has raised his son alone since his wife died."
    ),
    "Jem Drummond": (
        "Silas Drummond's twelve-year-old son in Beneath the Copper Hills. Reckless and proud, he "
        "would rather work in the mine than sit in a schoolroom."
    ),
    "Eliza Rook": (
        "Owner of the Silver Bell saloon in Beneath the Copper Hills. Shrewd and unflappable, she "
        "knows every debt in town and lends money on her own terms."
    ),
    "Father Tomás Ibarra": (
        "Priest of the small adobe church in Red Ledge in Beneath the Copper Hills. Patient and "
        "wry, he tends the sick and keeps the peace between rival crews."
    ),
    "Corwin Hale": (
        "The mining company's agent in Beneath the Copper Hills. Smooth-talking and greedy, he is "
        "quietly buying up claims before news of a new vein gets out."
    ),
}

LITERARY_ROWS: list[RoleRow] = [
    {
        "c1": "Captain Elias Thorne",
        "c1_text": (
            "The glass is falling and the men are whispering about the cape. Tell me plainly: can "
            "you bring us round before the storm, or must I turn back and face the Bristol men "
            "empty-handed?"
        ),
        "c2_text": (
            "[He wants certainty; the sea never gives it.] Plainly, then, sir: if the wind holds "
            "west-south-west we clear the cape by dawn. I have worked the reckoning three times "
            "and my father's old charts agree with it. Turn back and you lose the season; press on "
            "and you must trust my hand on the course."
        ),
        "gt": "Maren Holloway",
        "others": ["Tobias Wren", "Jonah Carrow", "Dr. Anselm Pike"],
    },
    {
        "c1": "Maren Holloway",
        "c1_text": (
            "Tobias says he saw you with the bosun and three of the topmen behind the longboat "
            "after the watch changed. What were you all discussing at that hour?"
        ),
        "c2_text": (
            "[She notices too much.] Discussing? Rations, Miss Holloway, and how thin they have "
            "grown while the captain keeps his own table stocked with wine. A first mate listens "
            "to the men; that is his duty. You would do well to remember whose orders keep this "
            "deck from falling apart."
        ),
        "gt": "Jonah Carrow",
        "others": ["Captain Elias Thorne", "Dr. Anselm Pike", "Lettice Marr"],
    },
    {
        "c1": "Dr. Anselm Pike",
        "c1_text": (
            "Hold still, lad, this will sting. How did you manage to split your hand open on a "
            "calm morning like this?"
        ),
        "c2_text": (
            "Ow! I was only coiling the line the way Mister Carrow showed me, sir, but a gull "
            "landed right on the yard, and everybody knows that means a death aboard, so I looked "
            "up and the rope ran through my fingers. Do you think it was an omen, Doctor?"
        ),
        "gt": "Tobias Wren",
        "others": ["Lettice Marr", "Jonah Carrow", "Maren Holloway"],
    },
    {
        "c1": "Tobias Wren",
        "c1_text": (
            "You're the new boy they found in the bread locker, ain't you? Why'd you hide down "
            "there three whole days without saying a word?"
        ),
        "c2_text": (
            "[Keep the voice low. Keep the cap on.] Because a stowaway who shows himself in port "
            "gets thrown back on the quay, and I had nowhere to be thrown back to. There is a man "
            "in Falmouth who thinks a wedding ring makes me his property. I would rather eat "
            "weevils for a year."
        ),
        "gt": "Lettice Marr",
        "others": ["Maren Holloway", "Dr. Anselm Pike", "Jonah Carrow"],
    },
    {
        "c1": "Miss Harriet Crewe",
        "c1_text": (
            "Miss Vale, you were seen in the east corridor after lights out. I trust you have an "
            "explanation that does not involve the locked music room."
        ),
        "c2_text": (
            "[She said 'locked' before I did.] I do, Miss Crewe. I heard the piano playing at a "
            "quarter past eleven, and the music room key hangs in your study. Either someone "
            "borrowed your key, or the room has a second door that nobody mentions. I wrote the "
            "exact time down in my notebook."
        ),
        "gt": "Imogen Vale",
        "others": ["Penelope Ashby", "Agatha Fenwick", "Sam Odell"],
    },
    {
        "c1": "Imogen Vale",
        "c1_text": (
            "Pip, wake up. Did you hear that? Someone is walking on the floor above us, and there "
            "isn't supposed to be a floor above us."
        ),
        "c2_text": (
            "Imogen, please don't say things like that at two in the morning! Agatha told everyone "
            "the Grey Girl walks the attic whenever someone is about to be expelled. I've got the "
            "last of the toffee under my pillow if it helps, but I am absolutely not going up "
            "there."
        ),
        "gt": "Penelope Ashby",
        "others": ["Agatha Fenwick", "Miss Harriet Crewe", "Sam Odell"],
    },
    {
        "c1": "Agatha Fenwick",
        "c1_text": (
            "Mr. Dunstan, a letter came for you from a London turf accountant. Matron nearly "
            "opened it by mistake. Shall I take it to the staff room?"
        ),
        "c2_text": (
            "[Not the staff room, for heaven's sake.] No, no, Miss Fenwick, that is quite "
            "unnecessary. Give it to me now, if you would. It is merely a, ah, matter of a "
            "subscription. Fortune favours the bold, as we say in the Latin set, though fortune "
            "has been rather unkind this term. You needn't mention it to the headmistress."
        ),
        "gt": "Mr. Lionel Dunstan",
        "others": ["Miss Harriet Crewe", "Sam Odell", "Imogen Vale"],
    },
    {
        "c1": "Imogen Vale",
        "c1_text": (
            "You always seem to be wherever something strange happens. How did you get into the "
            "chapel crypt when that door has been bricked up for years?"
        ),
        "c2_text": (
            "[She's cleverer than the others.] A bricked door isn't the only way in, miss. There's "
            "an old drain that runs from the ice house under the kitchen garden. My dad showed me "
            "when I was small. I'll show you too, but you mustn't tell the head girl, or we lose "
            "our cottage."
        ),
        "gt": "Sam Odell",
        "others": ["Penelope Ashby", "Mr. Lionel Dunstan", "Agatha Fenwick"],
    },
    {
        "c1": "Walter Brackett",
        "c1_text": (
            "Mother, the railway men have offered twice what the lower fields are worth. We could "
            "clear the bank loan by Michaelmas. Will you at least read their letter?"
        ),
        "c2_text": (
            "[He sounds like his father did, before the bad years.] I'll read it, Walter, and then "
            "I'll put it in the stove. Your grandfather drained those fields with his own hands. "
            "We came through two wet harvests without selling an acre, and we'll come through the "
            "loan the same way."
        ),
        "gt": "Nell Brackett",
        "others": ["Rosie Brackett", "Hal Tremaine", "Dora Finch"],
    },
    {
        "c1": "Dora Finch",
        "c1_text": (
            "There's a letter for you from the Teachers' College in Wexmoor, Rosie dear. Very "
            "official-looking envelope. Not that I'd know what's inside, of course."
        ),
        "c2_text": (
            "[Please, please let it be yes.] Thank you, Mrs. Finch, though I suspect you know more "
            "than I do already. Please don't say anything to Mother yet, will you? If it's a yes, "
            "I want to tell her myself, after the milking, when she's in a softer mood."
        ),
        "gt": "Rosie Brackett",
        "others": ["Nell Brackett", "Walter Brackett", "Reverend Cyril Moss"],
    },
    {
        "c1": "Nell Brackett",
        "c1_text": (
            "You've been shoeing that same horse for half an hour, Hal Tremaine. If you've "
            "something to say to me, say it."
        ),
        "c2_text": (
            "[Forty years, and she still sees straight through me.] All right then, Nell. I heard "
            "Walter's been talking to the railway men. If it comes to it, the forge has a little "
            "put by. I'd rather see it spent keeping you on your land than sitting in a tin under "
            "my bed."
        ),
        "gt": "Hal Tremaine",
        "others": ["Walter Brackett", "Reverend Cyril Moss", "Dora Finch"],
    },
    {
        "c1": "Rosie Brackett",
        "c1_text": (
            "Vicar, Walter and Mother haven't spoken at supper for three days now. I know you mean "
            "well, but please don't bring it up at the harvest festival."
        ),
        "c2_text": (
            "My dear girl, I would never dream of raising it from the pulpit. I had only thought "
            "that a short sermon on the prodigal son, quite general, might gently remind certain "
            "families that reconciliation is a blessing. And perhaps a quiet word with your "
            "brother afterwards, over the marrow competition."
        ),
        "gt": "Reverend Cyril Moss",
        "others": ["Hal Tremaine", "Dora Finch", "Walter Brackett"],
    },
    {
        "c1": "Augustin Marlowe",
        "c1_text": (
            "I am told you spoke at the chapel hall last night about the length of the working "
            "day. Do you know what happens to mill hands who bite the hand that feeds them?"
        ),
        "c2_text": (
            "[Don't look down. He wants you to look down.] I know what happens to mill hands who "
            "don't, Mr. Marlowe. They lose fingers to your looms at fourteen and cough their lungs "
            "out by forty. Twelve hours is not feeding us. All we asked for was ten, and a guard "
            "on the carding machines."
        ),
        "gt": "Clara Voss",
        "others": ["Sal Greeley", "Benedict Marlowe", "Hester Voss"],
    },
    {
        "c1": "Clara Voss",
        "c1_text": (
            "Why do you keep coming down to Tanner's Row? Your father would have you locked up if "
            "he knew you were giving money away here."
        ),
        "c2_text": (
            "[Because you are here.] Let him rage. I have read every reformer's pamphlet in his "
            "library, Clara, and not one of them taught me what I learned in an afternoon on this "
            "street. I am writing a poem about the lamps your father lights. It is dreadful, but "
            "it is the truest thing I have written."
        ),
        "gt": "Benedict Marlowe",
        "others": ["Inspector Rufus Keane", "Augustin Marlowe", "Sal Greeley"],
    },
    {
        "c1": "Inspector Rufus Keane",
        "c1_text": (
            "Your lodger Clara Voss has been seen carrying printed handbills. If you know where "
            "they are printed, it would go easier for you to tell me now."
        ),
        "c2_text": (
            "Easier for me, Inspector? I've kept this house thirty years by not knowing things. My "
            "lodgers pay on a Saturday and I don't read what they carry. If it's printers you "
            "want, try the Gazette. Now, are you taking a room, or are you just dripping on my "
            "floor?"
        ),
        "gt": "Sal Greeley",
        "others": ["Hester Voss", "Clara Voss", "Benedict Marlowe"],
    },
    {
        "c1": "Clara Voss",
        "c1_text": (
            "You've drawn the whole street again, Hester. Who is this man by the lamp post? You've "
            "drawn him three days running."
        ),
        "c2_text": (
            "[I hoped she would notice.] He comes every evening when the lamps are lit and writes "
            "in a little book, Clara. He never looks at the lamps, only at our door. I gave him "
            "the long grey coat and the hat pulled low, just as he wears them. Is he a friend of "
            "yours?"
        ),
        "gt": "Hester Voss",
        "others": ["Sal Greeley", "Inspector Rufus Keane", "Benedict Marlowe"],
    },
    {
        "c1": "Ada Quill",
        "c1_text": (
            "Jem hasn't been at his desk for a week. Mr. Drummond, is he working down the shaft? "
            "He is twelve years old."
        ),
        "c2_text": (
            "[She's right, and I hate that she's right.] He's carrying water for my crew, Miss "
            "Quill, not swinging a pick. His mother would have had him at your desk, I know it. "
            "But the company docked half our pay this month, and a boy's wage buys flour. I'll "
            "talk to him tonight."
        ),
        "gt": "Silas Drummond",
        "others": ["Father Tomás Ibarra", "Corwin Hale", "Jem Drummond"],
    },
    {
        "c1": "Silas Drummond",
        "c1_text": (
            "The teacher says you walked out of her lesson and climbed the ore chute. You want to "
            "explain that to me, son?"
        ),
        "c2_text": (
            "She wanted us copying letters off a slate like babies, Pa! Tommy Birch's brother "
            "works the lower level already and he's only thirteen. I climbed that chute faster "
            "than anybody ever has. I could be useful to you down there, if you'd just let me."
        ),
        "gt": "Jem Drummond",
        "others": ["Ada Quill", "Eliza Rook", "Father Tomás Ibarra"],
    },
    {
        "c1": "Corwin Hale",
        "c1_text": (
            "Miss Rook, the company would take it as a kindness if you told me which of your "
            "customers have been filing claims up Hollins Gulch. Naturally, the company is "
            "generous to its friends."
        ),
        "c2_text": (
            "[So that's where the new vein is.] Mr. Hale, half this town owes me money and the "
            "other half owes me secrets. Neither is for sale at company prices. Now, if you care "
            "to buy a drink, I'll pour you one, and I'll even pretend I never heard the question."
        ),
        "gt": "Eliza Rook",
        "others": ["Ada Quill", "Silas Drummond", "Father Tomás Ibarra"],
    },
    {
        "c1": "Eliza Rook",
        "c1_text": (
            "Padre, two of Drummond's men and two of Hale's are set to fight in my street at "
            "sundown. I'd rather not have blood on my porch again."
        ),
        "c2_text": (
            "Nor would I, Eliza, and I would rather not bury anyone this week; the ground is hard "
            "as iron. I'll ring the bell for a vigil at sundown and stand in the middle of your "
            "street with a candle. Few men want to strike a priest in front of their mothers."
        ),
        "gt": "Father Tomás Ibarra",
        "others": ["Silas Drummond", "Corwin Hale", "Ada Quill"],
    },
]

# ---------------------------------------------------------------------------------------------
# Drama track (Chinese, invented screenplays)
# ---------------------------------------------------------------------------------------------

DRAMA_CHARACTERS: dict[str, str] = {
    # 《雾港来信》 (port-city period drama)
    "沈知秋": (
        "剧本《雾港来信》中《港声报》的女记者，出身书香门第。她敏锐倔强，"
        "为追查码头走私案不惜以身犯险。"
    ),
    "顾明远": (
        "《雾港来信》中码头帮会的二当家，表面冷酷寡言。其实他重情重义，暗中护着码头上的穷苦工人。"
    ),
    "林婉清": (
        "《雾港来信》中百乐歌舞厅的当红歌女，举止温婉。她的真实身份是地下组织的交通员，"
        "借登台唱歌传递情报。"
    ),
    "周德厚": (
        "《雾港来信》中《港声报》的主编，年过半百。他胆小谨慎、凡事求稳，"
        "却始终守着一点读书人的良知。"
    ),
    "陆少卿": (
        "《雾港来信》中富商陆家的独子，刚从法国留学归来。他天真热情、满脑子理想，常常好心办坏事。"
    ),
    "赵三": "《雾港来信》中顾明远的手下，码头苦力出身。他性子粗鲁直爽，对二当家忠心耿耿。",
    # 《小城医事》 (county-hospital drama)
    "许嘉禾": (
        "剧本《小城医事》中从省城大医院调到县医院的年轻外科医生。他技术过硬却心高气傲，"
        "起初看不惯小城医院的种种土办法。"
    ),
    "方秀梅": (
        "《小城医事》中县医院外科的护士长，在医院干了二十多年。她干练泼辣、刀子嘴豆腐心，"
        "把年轻护士当自家孩子护着。"
    ),
    "钟建国": "《小城医事》中县医院的院长，做事圆滑。他整天为设备经费和上级检查发愁，凡事先算账。",
    "唐小雨": (
        "《小城医事》中刚到外科实习的护士，卫校毕业不久。她胆小爱哭，但心地善良，做事格外认真。"
    ),
    "韩立军": (
        "《小城医事》中的急诊科主任，县医院的老资格医生。他经验丰富、脾气火爆，"
        "和新来的许嘉禾处处较劲。"
    ),
    "刘婶": "《小城医事》中医院食堂的打饭阿姨。她热心肠、爱打听，医院里谁和谁闹了别扭她都知道。",
    # 《长安夜行录》 (Tang-style mystery)
    "裴寂然": (
        "剧本《长安夜行录》中的大理寺少卿，年少成名。他冷静缜密、不苟言笑，专办长安城中的离奇命案。"
    ),
    "苏九娘": (
        "《长安夜行录》中西市一家胡商酒肆的老板娘。她精明圆滑、消息灵通，"
        "三教九流都爱在她的酒肆里歇脚。"
    ),
    "阿蛮": (
        "《长安夜行录》中裴寂然的随从少年，从小在街头长大。他机灵贪吃、嘴快胆大，"
        "常替主人在市井中打探消息。"
    ),
    "崔元礼": (
        "《长安夜行录》中的礼部侍郎，出身世家。他城府极深、说话滴水不漏，似乎与几桩命案都有牵连。"
    ),
    "上官灵": "《长安夜行录》中大理寺唯一的女仵作。她性情冷淡、专业严谨，只相信尸体说出的真相。",
    "李十二郎": (
        "《长安夜行录》中的宗室子弟，整日斗鸡走马。他风流轻佻、油嘴滑舌，"
        "却常在不经意间说出关键线索。"
    ),
    # 《向阳里》 (neighbourhood family drama)
    "何桂兰": (
        "剧本《向阳里》中何家的老太太，退休纺织女工。她操劳了一辈子，嘴上唠叨，心里最惦记儿孙。"
    ),
    "何志强": (
        "《向阳里》中何桂兰的长子，工厂下岗后开起了出租车。他老实本分、不善言辞，"
        "夹在母亲和妻子之间两头为难。"
    ),
    "吴丽娟": (
        "《向阳里》中何志强的妻子，在超市当收银员。她精打细算、说话利落，"
        "一心想攒钱给女儿在城里买房。"
    ),
    "何晓晓": "《向阳里》中何志强的女儿，正在读高二。她叛逆有主见，偷偷练街舞，想报考艺术院校。",
    "马文斌": (
        "《向阳里》中何家的老邻居，退休的中学语文老师。他爱下象棋、爱讲道理，总喜欢引几句古话劝人。"
    ),
    "孙建业": (
        "《向阳里》中胡同口小卖部的老板，街坊都叫他孙胖子。他油嘴滑舌、消息灵通，"
        "做生意精明却也讲街坊情分。"
    ),
    # 《破晓实验室》 (tech start-up drama)
    "江一舟": (
        "剧本《破晓实验室》中一家人工智能创业公司的创始人，三十岁。他理想主义、点子多，"
        "却不擅长管理团队和应付投资人。"
    ),
    "白露": (
        "《破晓实验室》中的风险投资人，也是公司的主要股东之一。她冷静强势，只看数据和回报，"
        "说话从不拐弯。"
    ),
    "郑浩": (
        "《破晓实验室》中的技术合伙人，江一舟的大学室友。他内向寡言、极度较真，"
        "宁可延期上线也不肯交出有漏洞的代码。"
    ),
    "夏甜": (
        "《破晓实验室》中负责市场运营的年轻员工。她乐观外向、鬼点子多，"
        "总能把枯燥的产品讲得热热闹闹。"
    ),
    "程立": (
        "《破晓实验室》中竞争对手公司的高管。他是个笑面虎，擅长开高薪挖人，暗中打探破晓的技术进展。"
    ),
    "江国平": (
        "《破晓实验室》中江一舟的父亲，退休的老国企干部。他观念传统，一直希望儿子回老家考公务员，"
        "过安稳日子。"
    ),
}

DRAMA_ROWS: list[RoleRow] = [
    {
        "c1": "周德厚",
        "c1_text": (
            "知秋啊，码头那篇稿子我看了，写得是好，可你点了三家商号的名字。这要是登出去，"
            "报馆明天就得关门。"
        ),
        "c2_text": (
            "[又是这句话。] 主编，稿子里每一个字我都核对过，货单、船期、仓库钥匙在谁手里，"
            "我都有人证。报馆关门是大事，可让那批走私的药品流到黑市，要死的是人命。您要是不敢署名，"
            "就署我一个人的名字。"
        ),
        "gt": "沈知秋",
        "others": ["林婉清", "陆少卿", "顾明远"],
    },
    {
        "c1": "沈知秋",
        "c1_text": (
            "顾二爷，昨晚三号仓库着火的时候，有人看见你的车停在巷子口。你能不能告诉我，"
            "你去那儿做什么？"
        ),
        "c2_text": (
            "[这丫头胆子比码头上的男人还大。] 沈小姐，码头上的事，知道得越少活得越长。"
            "我只告诉你一句：火不是我放的，仓库里那几个搬货的兄弟，是我拖出来的。你要写，就写这个。"
            "别的，别问。"
        ),
        "gt": "顾明远",
        "others": ["赵三", "陆少卿", "周德厚"],
    },
    {
        "c1": "陆少卿",
        "c1_text": (
            "林小姐，你今晚唱的那首《月下渡》真好听。我想请你喝杯咖啡，就当交个朋友，可以吗？"
        ),
        "c2_text": (
            "[他偏偏挑今晚。] 陆少爷太客气了。今晚恐怕不行，散场后我还得去裁缝铺取一件旗袍，"
            "约好了十点钟，去晚了老板要关门的。改天吧，等您下回来听歌，我专门为您唱一首新曲子。"
        ),
        "gt": "林婉清",
        "others": ["沈知秋", "赵三", "周德厚"],
    },
    {
        "c1": "顾明远",
        "c1_text": "赵三，我让你盯着那个留洋回来的陆少爷，他这两天都跟什么人来往？",
        "c2_text": (
            "二爷，那小子天天往歌舞厅跑，捧林小姐的场，一晚上光花篮就送了八个！"
            "昨儿又跑到报馆门口等那个姓沈的女记者，傻乎乎站了两个钟头。要我说，这种少爷秧子，"
            "翻不出什么浪来。"
        ),
        "gt": "赵三",
        "others": ["周德厚", "林婉清", "沈知秋"],
    },
    {
        "c1": "方秀梅",
        "c1_text": "许医生，三床那个老大爷非要出院，说家里的牛没人喂。你是主刀，你去跟他说吧。",
        "c2_text": (
            "[在省城从没遇到过这种理由。] 方护士长，他的引流管明天才能拔，现在出院，感染了谁负责？"
            "牛的事……能不能请村里帮忙喂两天？我去跟他把病情讲清楚，实在不行，我自己掏钱请人喂。"
        ),
        "gt": "许嘉禾",
        "others": ["韩立军", "唐小雨", "钟建国"],
    },
    {
        "c1": "唐小雨",
        "c1_text": "护士长，我……我刚才扎了三次都没扎进去，病人家属骂我，我是不是不适合干这行？",
        "c2_text": (
            "哭什么哭，眼泪能把针扎进去啊？我刚来的时候，一个老太太的血管我扎了五次，"
            "被她儿子指着鼻子骂了半个钟头。来，手给我，看着我怎么找血管。明天早上七点你提前来，"
            "我带你练。"
        ),
        "gt": "方秀梅",
        "others": ["刘婶", "许嘉禾", "钟建国"],
    },
    {
        "c1": "许嘉禾",
        "c1_text": "钟院长，腹腔镜设备必须换了，现在这台是十年前的，上周差点在手术台上出事。",
        "c2_text": (
            "[又是钱的事。] 小许啊，你说的我都懂，可一台新的要八十多万，"
            "今年县里拨的经费连绩效都不够发。这样，你先写个报告，我拿去卫健局哭哭穷。"
            "上面的检查下个月就到，到时候咱们再合计合计。"
        ),
        "gt": "钟建国",
        "others": ["韩立军", "方秀梅", "刘婶"],
    },
    {
        "c1": "刘婶",
        "c1_text": (
            "韩主任，今天的红烧肉给你多打了一勺。听说你昨天在走廊上跟那个新来的许医生吵起来了？"
        ),
        "c2_text": (
            "[这食堂的消息比院办还快。] 刘婶，那不叫吵，那叫教他做人！急诊送来的病人，"
            "他非要等CT结果才肯上台。我干了二十年急诊，一摸肚子就知道是脾破裂。县城不是省城，"
            "病人等不起！"
        ),
        "gt": "韩立军",
        "others": ["许嘉禾", "唐小雨", "钟建国"],
    },
    {
        "c1": "裴寂然",
        "c1_text": "死者颈上的勒痕你看过了，是自缢还是他杀？",
        "c2_text": (
            "他杀。勒痕环颈一周，深浅一致，若是自缢，痕迹应在耳后斜向上提。另外，"
            "死者指甲缝里有朱砂和金箔碎屑，这种金箔只有宫中佛堂和几座大寺才用。少卿若要查，"
            "可从这里入手。"
        ),
        "gt": "上官灵",
        "others": ["阿蛮", "苏九娘", "李十二郎"],
    },
    {
        "c1": "苏九娘",
        "c1_text": "哟，裴大人身边的小跟班又来了？今天想打听什么？先说好，胡饼可不能白吃。",
        "c2_text": (
            "[先吃再说。] 九娘最好了！我就问一句：前天夜里，有没有个穿绯色袍子、"
            "左手缺一根指头的人来你这儿喝酒？我家郎君说了，打听到了，胡饼钱他双倍给！再来两个，"
            "要芝麻多的。"
        ),
        "gt": "阿蛮",
        "others": ["李十二郎", "上官灵", "崔元礼"],
    },
    {
        "c1": "裴寂然",
        "c1_text": (
            "崔侍郎，案发当夜，有人看见您的马车在城南寺后门停了半个时辰。不知侍郎深夜礼佛，"
            "所为何事？"
        ),
        "c2_text": (
            "[这小子比他父亲难缠。] 裴少卿果然勤勉。本官那夜是奉命去寺中查看上元节法会的仪轨，"
            "礼部公文一应俱全，少卿若有疑虑，明日派人来衙门调阅便是。只是少卿年轻，办案还需慎言，"
            "莫要伤了朝廷的体面。"
        ),
        "gt": "崔元礼",
        "others": ["李十二郎", "苏九娘", "上官灵"],
    },
    {
        "c1": "阿蛮",
        "c1_text": "十二郎，你昨晚是不是又在坊里喝到天亮？我家郎君让我问你，有没有见到可疑的人。",
        "c2_text": (
            "可疑的人？那坊里个个都可疑，哈哈！不过说正经的，昨夜有个和尚进了醉月楼，一掷千金，"
            "点了最贵的酒，却一口没喝，只盯着窗外的城南寺塔看。本郎君斗鸡输了三百贯，"
            "看人的眼力可没输。"
        ),
        "gt": "李十二郎",
        "others": ["崔元礼", "苏九娘", "上官灵"],
    },
    {
        "c1": "何晓晓",
        "c1_text": "奶奶，我跟您说实话吧，我不想考师范，我想考舞蹈学院，学街舞。",
        "c2_text": (
            "[这孩子跟她爸小时候一个倔脾气。] 啥？街舞？就是电视里那种满地打滚的？晓晓啊，"
            "奶奶在纺织厂站了三十年机器，就盼着你们能坐办公室。你先别跟你妈说，她非得急出病来。"
            "你跳一段给奶奶看看，奶奶先瞧瞧。"
        ),
        "gt": "何桂兰",
        "others": ["吴丽娟", "马文斌", "孙建业"],
    },
    {
        "c1": "吴丽娟",
        "c1_text": "志强，妈又把退休金借给二姨了，这都第三回了。你当儿子的，就不能说句话？",
        "c2_text": (
            "[说了也是挨骂。] 丽娟，你小点声，妈在屋里听着呢。二姨家那边确实困难，妈心软你也知道。"
            "我这礼拜多跑几趟夜班，交了份子钱还能剩点，晓晓的补课费先从我这儿出，行不行？"
        ),
        "gt": "何志强",
        "others": ["何桂兰", "马文斌", "孙建业"],
    },
    {
        "c1": "何志强",
        "c1_text": "马老师，您说我该不该让晓晓去学那个街舞？她妈死活不同意。",
        "c2_text": (
            "将军！……哎，先说你的事。志强啊，古人讲因材施教，孩子的心要是不在书本上，"
            "硬按着头也念不进去。我教了三十年书，见过太多被逼着学了不喜欢的专业的学生。"
            "让孩子试一年，考不上，再回来走老路也不迟。"
        ),
        "gt": "马文斌",
        "others": ["孙建业", "何桂兰", "吴丽娟"],
    },
    {
        "c1": "何晓晓",
        "c1_text": "孙叔，给我拿瓶水。对了，你千万别跟我妈说你看见我在胡同口练舞啊！",
        "c2_text": (
            "[这丫头跳得还真有两下子。] 放心，你孙叔这张嘴，比保险柜还严实！不过话说回来，"
            "你妈每天下班都在我这儿买酱油，她要是问起来，我可不能撒谎啊。这样，水算叔请的，"
            "你下回练的时候，往我这小卖部门口站，给叔招揽点生意。"
        ),
        "gt": "孙建业",
        "others": ["马文斌", "何志强", "吴丽娟"],
    },
    {
        "c1": "白露",
        "c1_text": (
            "一舟，下个月就是B轮的关键节点，你们的用户留存率还是只有百分之十二。"
            "给我一个不撤资的理由。"
        ),
        "c2_text": (
            "[她要的是数字，不是梦想。] 白总，留存低是因为我们只上线了核心功能。"
            "郑浩那边的新模型下周就能进内测，测试组的次周留存已经到了百分之三十。再给我六周，"
            "如果数据不达标，董事会怎么决定，我都认。"
        ),
        "gt": "江一舟",
        "others": ["夏甜", "郑浩", "程立"],
    },
    {
        "c1": "江一舟",
        "c1_text": "浩子，白总那边催得紧，新模型能不能这周五先上线？有小问题我们上线后再修。",
        "c2_text": (
            "不行。边界情况的测试才跑了一半，昨天还发现一个会把用户数据串号的漏洞。一舟，"
            "上线后再修这种话，我们大学做课设的时候你就说过，结果呢？再给我十天，"
            "我保证交一个干净的版本。"
        ),
        "gt": "郑浩",
        "others": ["夏甜", "江国平", "程立"],
    },
    {
        "c1": "郑浩",
        "c1_text": "夏甜，你那个发布会方案里写着全网第一，可我们的模型明明不是第一，这样写不行。",
        "c2_text": (
            "哎呀郑工，别这么严肃嘛！那我改成最懂你的AI小助手，这总没毛病吧？"
            "我已经约了三个科技博主来直播，现场再搞个抽奖，保证热热闹闹的。"
            "你到时候只要上台讲五分钟技术亮点就行，放心，稿子我帮你写！"
        ),
        "gt": "夏甜",
        "others": ["白露", "程立", "江一舟"],
    },
    {
        "c1": "江一舟",
        "c1_text": "程总，您约我喝咖啡，不会只是为了聊聊行业形势吧？",
        "c2_text": (
            "[沉得住气，比我想的成熟。] 江总爽快，那我也不绕弯子。破晓的技术我们很欣赏，"
            "尤其是郑浩那个团队。我们公司愿意出三倍年薪，外加期权。当然，"
            "如果你愿意带着整个公司并过来，条件还可以再谈。"
        ),
        "gt": "程立",
        "others": ["白露", "江国平", "夏甜"],
    },
]

# ---------------------------------------------------------------------------------------------
# Expertise track (English, invented experts, five audience levels)
# ---------------------------------------------------------------------------------------------

# Candidate names, in canonical order (shuffled per row in the option columns).
LEVELS: tuple[str, ...] = ("Child", "Teen", "College Student", "Graduate Student", "Expert")

# Profile templates; {field} and {topic} are filled in from each row.
LEVEL_PROFILES: dict[str, str] = {
    # audience levels
    "Child": (
        "A primary-school child of about eight to ten who has never studied {field}. Knows about "
        "{topic} only from everyday experience, stories and simple comparisons, and asks short, "
        "concrete questions."
    ),
    "Teen": (
        "A secondary-school student of about fourteen to sixteen who has met a few basic ideas "
        "from {field} in school lessons. Knows a few terms related to {topic} and links them to "
        "homework, hobbies and daily life, but not to the underlying theory."
    ),
    "College Student": (
        "An undergraduate who has taken introductory university courses relevant to {field}. Knows "
        "the textbook account of {topic}, its standard vocabulary and simple models, but has "
        "little research experience."
    ),
    "Graduate Student": (
        "A master's or doctoral student doing research in or near {field}. Works hands-on with "
        "data, methods and a supervisor on problems related to {topic}, and asks practical "
        "methodological questions."
    ),
    "Expert": (
        "An established researcher with many years of work in {field}. Knows the research "
        "literature on {topic} in depth and engages the explainer as a peer, debating open "
        "problems and assumptions."
    ),
}

EXPERTISE_ROWS: list[ExpertRow] = [
    {
        "c1": "Dr. Ines Okafor, acoustician",
        "field": "acoustics",
        "topic": "echoes and reverberation in rooms",
        "c1_text": (
            "When you clap in a big empty hall, the sound bounces off the walls, the ceiling and "
            "the floor many times before it fades away. We call that lingering sound "
            "reverberation, and we design concert halls so that it lasts just the right amount of "
            "time."
        ),
        "c2_text": (
            "So is that why my voice sounds really big and spooky in the swimming pool changing "
            "room? I shouted my name in there and it said it back to me three times! Could you "
            "make a room that never echoes at all, like a room made of pillows?"
        ),
        "gt": "Child",
    },
    {
        "c1": "Prof. Tomasz Lindqvist, glaciologist",
        "field": "glaciology",
        "topic": "how glaciers flow",
        "c1_text": (
            "Glaciers move in two main ways: the ice deforms slowly under its own weight, and the "
            "whole glacier can slide over its bed when meltwater gets underneath. In summer, the "
            "sliding part can speed up dramatically."
        ),
        "c2_text": (
            "Agreed, though I would push back on treating sliding as simple lubrication. Our "
            "borehole records suggest the efficiency of the drainage system matters more than the "
            "total melt; once channels form, basal water pressure drops and the late-summer "
            "slowdown follows. Have you reconciled that with your flow-law parameters for "
            "temperate ice?"
        ),
        "gt": "Expert",
    },
    {
        "c1": "Dr. Priya Ramanathan, immunologist",
        "field": "immunology",
        "topic": "how vaccines train the immune system",
        "c1_text": (
            "A vaccine shows your immune system a harmless piece or version of a germ so it can "
            "practise. Your body makes antibodies and memory cells, and if the real germ ever "
            "turns up, it can respond much faster."
        ),
        "c2_text": (
            "Oh, so it's kind of like doing a practice exam before the real one? We did white "
            "blood cells in biology last term, but nobody explained why my arm got so sore after "
            "my booster. Is that my immune system actually fighting the vaccine, or is it just the "
            "needle?"
        ),
        "gt": "Teen",
    },
    {
        "c1": "Dr. Mateo Ferreira, marine biologist",
        "field": "marine biology",
        "topic": "coral bleaching",
        "c1_text": (
            "Corals live in partnership with tiny algae inside their tissues, and those algae "
            "supply most of the coral's food through photosynthesis. When the water stays too warm "
            "for too long, the partnership breaks down, the algae are expelled and the coral turns "
            "white."
        ),
        "c2_text": (
            "That matches what we covered in my intro ecology course as an example of mutualism, "
            "with the zooxanthellae providing sugars in exchange for shelter and nutrients. What I "
            "still don't understand is why heat stress breaks the relationship. Is it the algae's "
            "photosynthesis that fails first, or the coral's response?"
        ),
        "gt": "College Student",
    },
    {
        "c1": "Prof. Hana Sato, cryptographer",
        "field": "cryptography",
        "topic": "public-key cryptography",
        "c1_text": (
            "Public-key cryptography uses a pair of keys: anyone can use your public key to lock a "
            "message, but only your private key can unlock it. Its security rests on mathematical "
            "problems that are easy to compute in one direction and very hard to reverse."
        ),
        "c2_text": (
            "That is the framing I use when I TA the undergraduate security course. In my own "
            "thesis work on lattice-based schemes, though, I keep running into the question of how "
            "meaningful the worst-case reductions are for the parameter sets people actually "
            "deploy. Do you think current choices leave enough margin?"
        ),
        "gt": "Graduate Student",
    },
    {
        "c1": "Dr. Aurelio Bianchi, volcanologist",
        "field": "volcanology",
        "topic": "how scientists forecast volcanic eruptions",
        "c1_text": (
            "Before a volcano erupts, hot melted rock called magma pushes up from deep "
            "underground. That can make the ground bulge a little, cause lots of tiny earthquakes "
            "and let out gases, so we put instruments on the volcano to watch for those signs."
        ),
        "c2_text": (
            "Wow, so the volcano kind of wiggles and burps before it blows up? Could magma ever "
            "come out in my garden? My brother says there's a volcano under our school, but he "
            "tells fibs all the time, so I don't believe him. Have you ever touched lava?"
        ),
        "gt": "Child",
    },
    {
        "c1": "Dr. Yara Haddad, sleep scientist",
        "field": "sleep science",
        "topic": "sleep cycles and dreaming",
        "c1_text": (
            "During the night you go through cycles of roughly ninety minutes. Each one includes "
            "light sleep, deep sleep and a stage called REM, when your eyes dart around and most "
            "vivid dreams happen."
        ),
        "c2_text": (
            "That's actually kind of wild. Is that why I feel completely wrecked when my alarm "
            "goes off at seven for school, even though I only stayed up till one gaming? My friend "
            "says if you time your sleep in ninety-minute chunks you wake up fine. Is that "
            "actually real?"
        ),
        "gt": "Teen",
    },
    {
        "c1": "Prof. Kwame Mensah, economist",
        "field": "macroeconomics",
        "topic": "inflation and interest rates",
        "c1_text": (
            "Inflation is a general rise in prices across the economy. Central banks usually "
            "respond by raising interest rates, which makes borrowing more expensive, cools "
            "spending and, with a delay, brings price growth back down."
        ),
        "c2_text": (
            "That is the standard transmission story, but the lags have been much harder to pin "
            "down this cycle. With so many households on long fixed-rate mortgages, the "
            "interest-rate channel looks weaker than our models assumed. I'd be curious whether "
            "your recent estimates put more weight on the exchange-rate or the expectations "
            "channel."
        ),
        "gt": "Expert",
    },
    {
        "c1": "Dr. Sofia Novak, astrophysicist",
        "field": "astrophysics",
        "topic": "black holes",
        "c1_text": (
            "A black hole is a region where so much mass is packed into so little space that not "
            "even light can escape. The boundary beyond which there is no return is called the "
            "event horizon."
        ),
        "c2_text": (
            "In my physics course we calculated the Schwarzschild radius of the Sun, and it came "
            "out at about three kilometres, which surprised me. But I'm confused about Hawking "
            "radiation: if nothing escapes the event horizon, how can a black hole lose mass? Is "
            "it related to the uncertainty principle we just covered?"
        ),
        "gt": "College Student",
    },
    {
        "c1": "Dr. Rhys Penhallow, soil scientist",
        "field": "soil science",
        "topic": "carbon storage in soils",
        "c1_text": (
            "Soils hold more carbon than all the world's plants and the atmosphere combined. "
            "Plants push carbon into the ground through their roots and fallen leaves, and soil "
            "microbes largely decide how much of it stays there and for how long."
        ),
        "c2_text": (
            "For my dissertation fieldwork I have been sampling paired plots under cover crops, "
            "and our bulk-density corrections shift the carbon stock estimates by almost twenty "
            "percent. My advisor thinks we should switch to an equivalent soil mass approach. Is "
            "that what your group uses for repeat measurements?"
        ),
        "gt": "Graduate Student",
    },
    {
        "c1": "Dr. Amara Eze, linguist",
        "field": "linguistics",
        "topic": "how young children learn to talk",
        "c1_text": (
            "Babies start learning language long before they can talk. They listen to the sounds "
            "around them, work out which ones matter in their language, and by about two years old "
            "they start putting words together."
        ),
        "c2_text": (
            "My baby sister only says ba and no right now. She says no to everything, even to ice "
            "cream! When I was a baby did I say funny words too? Mum says I called spaghetti "
            "pasketti until I was five, and I still think pasketti sounds better."
        ),
        "gt": "Child",
    },
    {
        "c1": "Prof. Oskar Brandt, materials scientist",
        "field": "materials science",
        "topic": "why iron and steel rust",
        "c1_text": (
            "Rust forms when iron reacts with oxygen and water. The iron atoms give up electrons, "
            "and the product is a flaky iron oxide that crumbles away instead of protecting the "
            "metal underneath, so the damage keeps going."
        ),
        "c2_text": (
            "Oh, is that the same as the oxidation stuff we did in chemistry with iron nails in "
            "test tubes? The one in salty water went the rustiest by far. So is that why my bike "
            "chain rusts so fast in winter, when they put salt all over the roads?"
        ),
        "gt": "Teen",
    },
    {
        "c1": "Dr. Lucía Marín, epidemiologist",
        "field": "epidemiology",
        "topic": "the reproduction number of an outbreak",
        "c1_text": (
            "The reproduction number, R, tells us how many people, on average, each infected "
            "person goes on to infect. If R stays above one, an outbreak grows; if it falls below "
            "one, the outbreak shrinks."
        ),
        "c2_text": (
            "We used R nought in my statistics elective with a simple SIR model, and I remember "
            "the herd immunity threshold being one minus one over R nought. But how do you "
            "actually estimate R in real time when case reports arrive late? Do you just fit the "
            "model to the daily counts?"
        ),
        "gt": "College Student",
    },
    {
        "c1": "Dr. Bashir Rahimi, ornithologist",
        "field": "ornithology",
        "topic": "how migratory birds navigate",
        "c1_text": (
            "Migratory birds use several compasses at once. They can read the position of the sun "
            "and the stars, and many species seem to sense the Earth's magnetic field, which helps "
            "them find their way across thousands of kilometres."
        ),
        "c2_text": (
            "The redundancy point is well taken, but the magnetic map question still seems "
            "unresolved to me. Our displacement trials show birds correcting after purely magnetic "
            "shifts, yet inclination alone cannot give longitude. Do you think declination is "
            "doing that work, or have we all been underestimating olfactory cues over open water?"
        ),
        "gt": "Expert",
    },
    {
        "c1": "Dr. Mei-Lin Zhou, neuroscientist",
        "field": "neuroscience",
        "topic": "how memories are consolidated during sleep",
        "c1_text": (
            "When you learn something new, a brain region called the hippocampus stores a first "
            "draft of the memory. Over time, and especially during sleep, that memory is replayed "
            "and gradually becomes more stable in the cortex."
        ),
        "c2_text": (
            "In our lab I am recording from the hippocampus during rest sessions, and I'm trying "
            "to decide how to detect replay events without biasing the analysis toward the "
            "templates we choose. My committee suggested shuffle controls, but the results seem "
            "sensitive to which shuffle I pick. How would you validate that the replay is real?"
        ),
        "gt": "Graduate Student",
    },
    {
        "c1": "Dr. Gregor Halvorsen, meteorologist",
        "field": "meteorology",
        "topic": "why weather forecasts are sometimes wrong",
        "c1_text": (
            "The air is always moving and swirling, and tiny changes today can grow into big "
            "differences a few days later. That is why we can say fairly well what tomorrow will "
            "be like, but next week is much harder to guess."
        ),
        "c2_text": (
            "But the weather lady on TV said it would be sunny for my birthday party, and then it "
            "rained and all my balloons blew away over the fence! Was she just guessing? Maybe you "
            "need a bigger telescope so you can see the clouds coming."
        ),
        "gt": "Child",
    },
    {
        "c1": "Prof. Nadia Petrescu, mathematician",
        "field": "mathematics",
        "topic": "prime numbers",
        "c1_text": (
            "A prime number is a whole number bigger than one that can only be divided evenly by "
            "one and by itself, like 2, 3, 5, 7 and 11. Every whole number can be built by "
            "multiplying primes together, a bit like atoms making molecules."
        ),
        "c2_text": (
            "We did prime factor trees in maths this year, so I get that part. But our teacher "
            "said nobody knows if there's a pattern to where the primes show up, which honestly "
            "sounds kind of made up. Surely with computers someone would have figured it out by "
            "now?"
        ),
        "gt": "Teen",
    },
    {
        "c1": "Dr. Olu Adeyemi, hydrologist",
        "field": "hydrology",
        "topic": "groundwater and aquifers",
        "c1_text": (
            "Much of the world's fresh water is stored underground in aquifers, layers of rock or "
            "sediment whose pores and cracks hold water. Wells tap that water, and rain slowly "
            "refills it in a process called recharge."
        ),
        "c2_text": (
            "I am building a groundwater model of a coastal aquifer for my master's thesis, and "
            "the calibration keeps trading hydraulic conductivity off against recharge; several "
            "parameter sets fit the observed heads equally well. My supervisor suggested adding "
            "salinity data. Would you trust that to constrain recharge, or is it too noisy?"
        ),
        "gt": "Graduate Student",
    },
    {
        "c1": "Dr. Linnea Engstrom, structural engineer",
        "field": "structural engineering",
        "topic": "why bridges sway and how engineers control it",
        "c1_text": (
            "Every structure has natural frequencies at which it likes to vibrate. If wind or "
            "footsteps push a bridge at one of those frequencies, the swaying can build up, so we "
            "add damping or stiffen the structure to keep it under control."
        ),
        "c2_text": (
            "This is resonance, right? We covered driven harmonic oscillators in my second-year "
            "dynamics class, where the amplitude peaks when the driving frequency matches the "
            "natural frequency. Is damping on a real bridge something like the damping coefficient "
            "in those equations, or is it a separate device bolted on?"
        ),
        "gt": "College Student",
    },
    {
        "c1": "Dr. Farid Nasser, machine learning researcher",
        "field": "machine learning",
        "topic": "overfitting in machine learning models",
        "c1_text": (
            "Overfitting happens when a model memorises the quirks of its training data instead of "
            "learning patterns that generalise. It looks brilliant on the examples it has seen but "
            "does badly on new ones, so we always test on held-out data."
        ),
        "c2_text": (
            "True in the classical picture, though the double descent results complicate it: "
            "heavily overparameterised networks interpolate the training set and still generalise. "
            "In my group we have found that the implicit regularisation of the optimiser explains "
            "more of that than explicit penalties do. Do you see the same in your benchmarks?"
        ),
        "gt": "Expert",
    },
]


# ---------------------------------------------------------------------------------------------
# Building and writing the CSV files
# ---------------------------------------------------------------------------------------------

Candidate = tuple[str, str]
"""A candidate's name and profile."""

Instructions = tuple[str, str]
"""The task sentence(s) and the response-format sentence of a track's prompt."""

N_ROLE_OPTIONS = 4
"""Candidates per row in the Literary and Drama tracks."""


def build_prompt(
    turns: tuple[str, str, str], candidates: list[Candidate], instructions: Instructions
) -> str:
    """Assemble the full prompt text in the PersonaEval section layout.

    ``turns`` is (Character1's name, Character1's utterance, Character2's utterance).
    """
    c1, c1_text, c2_text = turns
    task, response_format = instructions
    lines = [
        FIRST_LINE,
        "",
        "# Conversation",
        "",
        f"[Character1: {c1}]",
        "[Begin]",
        c1_text,
        "[End]",
        "",
        "[Character2]",
        "[Begin]",
        c2_text,
        "[End]",
        "",
        "# Task",
        "",
        task,
        "",
        "# Character Candidates",
        "",
    ]
    for number, (name, profile) in enumerate(candidates, start=1):
        lines += [f"## {number}. {name}", profile, ""]
    lines += ["# Response Format", "", response_format]
    return "\n".join(lines)


def header(n_options: int) -> list[str]:
    """Return the CSV header: prompt, gt, then name and profile columns per option."""
    columns = ["prompt", "gt"]
    for i in range(1, n_options + 1):
        columns += [f"option{i}", f"option{i}_profile"]
    return columns


def record(prompt: str, gt: str, candidates: list[Candidate]) -> list[str]:
    """Return one CSV record in header order."""
    values = [prompt, gt]
    for name, profile in candidates:
        values += [name, profile]
    return values


def check_role_row(row: RoleRow, profiles: dict[str, str]) -> None:
    """Reject rows whose names are unknown, repeated, or where Character1 is a candidate."""
    names = [row["gt"], *row["others"]]
    unknown = [name for name in [row["c1"], *names] if name not in profiles]
    if unknown:
        msg = f"no profile for {unknown}"
        raise ValueError(msg)
    if len(set(names)) != N_ROLE_OPTIONS or len(names) != N_ROLE_OPTIONS:
        msg = f"need {N_ROLE_OPTIONS} distinct candidates, got {names}"
        raise ValueError(msg)
    if row["c1"] in names:
        msg = f"Character1 {row['c1']!r} must not be a candidate"
        raise ValueError(msg)


def role_records(
    rows: list[RoleRow],
    profiles: dict[str, str],
    rng: random.Random,
    instructions: Instructions,
) -> list[list[str]]:
    """Build the Literary or Drama records, shuffling the gt position with ``rng``."""
    records = []
    for row in rows:
        check_role_row(row, profiles)
        names = [row["gt"], *row["others"]]
        rng.shuffle(names)
        candidates = [(name, profiles[name]) for name in names]
        prompt = build_prompt((row["c1"], row["c1_text"], row["c2_text"]), candidates, instructions)
        records.append(record(prompt, row["gt"], candidates))
    return records


def expertise_records(rows: list[ExpertRow], rng: random.Random) -> list[list[str]]:
    """Build the Expertise records, shuffling the level order per row with ``rng``."""
    records = []
    for row in rows:
        if row["gt"] not in LEVELS:
            msg = f"unknown audience level {row['gt']!r}"
            raise ValueError(msg)
        names = list(LEVELS)
        rng.shuffle(names)
        candidates = [
            (name, LEVEL_PROFILES[name].format(field=row["field"], topic=row["topic"]))
            for name in names
        ]
        prompt = build_prompt(
            (row["c1"], row["c1_text"], row["c2_text"]),
            candidates,
            (EXPERTISE_TASK, EXPERTISE_FORMAT),
        )
        records.append(record(prompt, row["gt"], candidates))
    return records


def write_csv(path: Path, columns: list[str], records: list[list[str]]) -> None:
    """Write UTF-8 CSV with standard quoting and LF line endings."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(records)


def main() -> None:
    """Write the three demo CSV files."""
    if tuple(LEVEL_PROFILES) != LEVELS:
        msg = "LEVEL_PROFILES must list exactly the five LEVELS, in order"
        raise ValueError(msg)
    rng = random.Random(0)
    outputs = {
        "demo_Literary.csv": (
            header(N_ROLE_OPTIONS),
            role_records(LITERARY_ROWS, LITERARY_CHARACTERS, rng, (ENGLISH_TASK, ENGLISH_FORMAT)),
        ),
        "demo_Drama.csv": (
            header(N_ROLE_OPTIONS),
            role_records(DRAMA_ROWS, DRAMA_CHARACTERS, rng, (CHINESE_TASK, CHINESE_FORMAT)),
        ),
        "demo_Expertise.csv": (header(len(LEVELS)), expertise_records(EXPERTISE_ROWS, rng)),
    }
    for filename, (columns, records) in outputs.items():
        path = OUT_DIR / filename
        write_csv(path, columns, records)
        print(f"wrote {len(records)} rows to {path}")


if __name__ == "__main__":
    main()
