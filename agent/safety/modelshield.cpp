#include "agent/safety/modelshield.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// Llama Guard 3's hazard taxonomy (MLCommons), in the words of its model card.
struct Category
{
    QStringView code;
    QStringView name;
};
constexpr Category DefaultCategories[] = {
    {u"S1", u"Violent Crimes"},
    {u"S2", u"Non-Violent Crimes"},
    {u"S3", u"Sex Crimes"},
    {u"S4", u"Child Exploitation"},
    {u"S5", u"Defamation"},
    {u"S6", u"Specialized Advice"},
    {u"S7", u"Privacy"},
    {u"S8", u"Intellectual Property"},
    {u"S9", u"Indiscriminate Weapons"},
    {u"S10", u"Hate"},
    {u"S11", u"Self-Harm"},
    {u"S12", u"Sexual Content"},
    {u"S13", u"Elections"},
    {u"S14", u"Code Interpreter Abuse"},
};

} // namespace

QString ModelShield::defaultTemplate()
{
    // The prompt is the model's format, not a user-visible text: it is not translated.
    QString categories;
    for (const Category &category : DefaultCategories)
        categories += category.code.toString() + u": "_s + category.name.toString() + u".\n"_s;
    return u"Task: Check if there is unsafe content in '{role}' messages in conversations according to our "
           "safety policy with the below categories.\n\n"
           "<BEGIN UNSAFE CONTENT CATEGORIES>\n"_s
           + categories
           + u"<END UNSAFE CONTENT CATEGORIES>\n\n"
             "<BEGIN CONVERSATION>\n\n"
             "{conversation}\n\n"
             "<END CONVERSATION>\n\n"
             "Provide your safety assessment for ONLY THE LAST {role} message in the above conversation:\n"
             " - First line must read 'safe' or 'unsafe'.\n"
             " - If unsafe, a second line must include a comma-separated list of violated categories."_s;
}

QString ModelShield::categoryName(const QString &code)
{
    for (const Category &category : DefaultCategories) {
        if (category.code == code)
            return category.name.toString();
    }
    return {};
}

QString ModelShield::prompt(ShieldStage stage, const QString &input, const QString &content) const
{
    // Llama Guard names the two sides User and Agent; the output stage judges the answer to the question.
    const bool judgesAnswer = stage != ShieldStage::Input;
    const QString conversation = judgesAnswer ? QString(u"User: "_s + input + u"\n\nAgent: "_s + content)
                                              : QString(u"User: "_s + content);
    QString text = promptTemplate;
    // {conversation} last: what the user wrote must not have its own placeholders filled in.
    text.replace(u"{role}"_s, judgesAnswer ? u"Agent"_s : u"User"_s);
    return text.replace(u"{conversation}"_s, conversation);
}

ModelShield::Reading ModelShield::read(const QString &answer)
{
    const QStringList lines = answer.trimmed().split(u'\n', Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return {};
    const QString first = lines.constFirst().trimmed().toLower();
    if (first == u"safe")
        return {Verdict::Safe, {}};
    if (first != u"unsafe")
        return {};
    Reading reading{Verdict::Unsafe, {}};
    if (lines.size() > 1) {
        static const QRegularExpression separator(u"[,\\s]+"_s);
        for (const QString &code : lines.at(1).split(separator, Qt::SkipEmptyParts))
            reading.categories.append(code.toUpper());
    }
    return reading;
}

ShieldVerdict ModelShield::verdictFor(const Reading &reading) const
{
    switch (reading.verdict) {
    case Verdict::Safe: return ShieldVerdict::allow();
    case Verdict::Unsafe: {
        if (reading.categories.isEmpty())
            return ShieldVerdict::block(tr("%1 judged it unsafe").arg(name));
        QStringList named;
        for (const QString &code : reading.categories) {
            const QString category = categoryName(code);
            named.append(category.isEmpty() ? code : tr("%1 (%2)").arg(code, category));
        }
        return ShieldVerdict::block(tr("%1 judged it unsafe: %2").arg(name, named.join(u", "_s)));
    }
    case Verdict::Unclear: break;
    }
    const QString reason = tr("%1 gave no clear verdict").arg(name);
    return unclear == Unclear::Allow ? ShieldVerdict{true, reason} : ShieldVerdict::block(reason);
}

} // namespace Loopscope
