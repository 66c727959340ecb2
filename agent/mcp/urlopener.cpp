#include "agent/mcp/urlopener.h"

#include <QCoreApplication>
#include <QProcess>
#include <QProcessEnvironment>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::UrlOpener)
};
} // namespace

QStringList UrlOpener::browserCommand(const QString &browser, const QUrl &url)
{
    QStringList command = QProcess::splitCommand(browser);
    if (command.isEmpty())
        return {};
    const QString encoded = QString::fromUtf8(url.toEncoded());
    bool placed = false;
    for (QString &argument : command) {
        if (argument.contains("%s"_L1)) {
            argument.replace("%s"_L1, encoded);
            placed = true;
        }
    }
    if (!placed)
        command.append(encoded);
    return command;
}

QString UrlOpener::open(const QUrl &url) const
{
    const QString browser = QProcessEnvironment::systemEnvironment().value(u"BROWSER"_s);
    // $BROWSER may list several commands separated by ':'; the first is used.
    QStringList command = browserCommand(browser.section(u':', 0, 0), url);
    if (!command.isEmpty()) {
        const QString program = command.takeFirst();
        if (!QProcess::startDetached(program, command))
            return Tr::tr("the browser command “%1” from $BROWSER could not be started").arg(program);
        return {};
    }
    if (m_desktop && m_desktop(url))
        return {};
    return Tr::tr("no browser could be opened; set $BROWSER or open this address yourself: %1")
        .arg(url.toString());
}

} // namespace Loopscope
