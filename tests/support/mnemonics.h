#pragma once

#include <QString>
#include <QStringList>

namespace Loopscope::Test {

// The first of \a texts (labels' and buttons' texts of one window or page) whose mnemonic letter an
// earlier one has ("&Name" and "N&ame" do not clash, "&Name" and "&New" do); empty when each is its own.
// "&&" is a literal "&", not a mnemonic.
inline QString firstMnemonicClash(const QStringList &texts)
{
    QString seen;
    for (QString text : texts) {
        text.remove(QStringLiteral("&&"));
        const qsizetype at = text.indexOf(u'&');
        if (at < 0 || at + 1 >= text.size())
            continue;
        const QChar letter = text.at(at + 1).toLower();
        if (seen.contains(letter))
            return text;
        seen.append(letter);
    }
    return {};
}

} // namespace Loopscope::Test
