// A test whose later functions moc 6.4 loses: it reads the // in the raw string below (on a
// continuation line) as a comment, drops the braces after it and so loses its count of the
// function body. check-test-functions.sh must report the function after it as never run.
#include <QTest>

class LostFunctionsSample : public QObject
{
    Q_OBJECT

private slots:
    void aFunctionMocSees() { QVERIFY(true); }

    void aFunctionHoldingTheRawString()
    {
        const QByteArray json = R"({"servers": {
            "api": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer x"}},
            "gh": {"command": "docker"}}})";
        QVERIFY(!json.isEmpty());
    }

    void aFunctionMocLoses() { QVERIFY(true); }
};

QTEST_GUILESS_MAIN(LostFunctionsSample)
#include "tst_lostfunctions.moc"
