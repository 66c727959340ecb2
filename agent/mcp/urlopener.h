#pragma once

#include <QString>
#include <QUrl>

#include <functional>

namespace Loopscope {

/*!
    Opens an authorization URL for the user to sign in. agent/ holds no Gui
    code: the window passes the system browser (QDesktopServices) in as a
    function; $BROWSER, when set, is used first — the URL appended, or put in
    place of %s — and never waited for, which is also how tests and headless
    runs follow the redirects without a person.
*/
class UrlOpener
{
public:
    using DesktopOpener = std::function<bool(const QUrl &)>;

    explicit UrlOpener(DesktopOpener desktop = {})
        : m_desktop(std::move(desktop))
    {}
    virtual ~UrlOpener() = default;

    // Empty on success, else why the URL could not be opened.
    virtual QString open(const QUrl &url) const;

    // $BROWSER's command and arguments for this URL; empty when $BROWSER is not set.
    static QStringList browserCommand(const QString &browser, const QUrl &url);

private:
    DesktopOpener m_desktop;
};

} // namespace Loopscope
